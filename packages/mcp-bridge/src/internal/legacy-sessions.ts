// The 2025-11-25 leg of the HTTP endpoint: stateful Streamable HTTP sessions, one McpServer and
// transport per session id, as the revision expects (GET streams, DELETE, logging/setLevel,
// notifications/cancelled on a later POST). The SDK's own stateless fallback would answer each
// POST on a fresh server, where a cancel never finds the call it names.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest, type McpServer } from "@modelcontextprotocol/server";
import { requestTokenLabel } from "./call-identity.ts";
import { CancelledStreams } from "./cancelled-streams.ts";
import { EarlyCancels } from "./early-cancels.ts";
import { isLoopbackHost } from "./http-guards.ts";
import { type HttpSession, HttpSessionTable, sessionClient } from "./http-sessions.ts";
import { sendError } from "./send-error.ts";
import {
  cancelIfUndelivered,
  type RequestId,
  requestIds,
  withoutRequests,
} from "./undeliverable-requests.ts";

/** Options for {@link LegacySessions}. */
export interface LegacySessionsOptions {
  /** A new MCP server for one session. */
  createServer: () => McpServer;
  idleMs: number;
  /** How long a session that made calls must have been idle to give way to a new one, in ms. */
  evictIdleMs: number;
  maxSessions: number;
  /**
   * Most sessions one client may hold: a labelled token, else a remote address (loopback
   * clients without a labelled token share one address, so they have no such limit); undefined
   * for half of `maxSessions`.
   */
  maxSessionsPerClient: number | undefined;
  /** True once the endpoint is shutting down (checked again after a body was read). */
  closing: () => boolean;
}

/** The session table and request handling of 2025-11-25 traffic. */
export class LegacySessions {
  readonly #options: LegacySessionsOptions;
  readonly #sessions: HttpSessionTable;
  #sweeping = false;

  constructor(options: LegacySessionsOptions) {
    this.#options = options;
    this.#sessions = new HttpSessionTable(options.idleMs);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Closes every session (which aborts their calls in flight). */
  closeAll(): Promise<void> {
    return this.#sessions.closeAll();
  }

  /** Handles one request of a 2025 client: `body` is the parsed POST body (undefined otherwise). */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const method = request.method ?? "GET";
    const sessionHeader = request.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    if (sessionId !== undefined) {
      const session = this.#sessions.get(sessionId);
      if (session === undefined) return sendError(response, 404, -32001, "Session not found");
      this.#sessions.track(session, method, response);
      if (method === "POST" && requestIds(body).length > 0) session.calls += 1;
      if (method === "POST") {
        const delivered = deliverable(session, body);
        if (delivered === undefined) {
          // Every request in it was cancelled before it arrived: nothing runs, nothing is owed.
          response.statusCode = 202;
          response.end();
          return;
        }
        body = delivered;
        const ids = requestIds(body);
        if (ids.length > 0 && response.destroyed) {
          // The client left before its requests were handed over: run none of them.
          body = withoutRequests(body);
          if (body === undefined) return;
        } else {
          // Checked and watched synchronously before handleRequest, which hands the requests to
          // the server within the same tick: a close cannot fall between the two.
          cancelIfUndelivered(response, ids, (gone) => this.#cancelUndelivered(session, gone));
          session.cancelledStreams.watch(response, ids);
        }
      }
      await session.transport.handleRequest(request, response, body);
      // Notifications are delivered before handleRequest returns, so a cancel has taken effect.
      if (method === "POST") session.cancelledStreams.endCancelled(session.transport, body);
      return;
    }
    if (method !== "POST" || !isInitializeRequest(body)) {
      return sendError(response, 400, -32000, "Bad Request: No valid session ID provided");
    }
    if (this.#options.closing()) return sendError(response, 503, -32000, "Server is shutting down");
    const label = requestTokenLabel(request);
    const client = sessionClient(label, request.socket.remoteAddress ?? "", isLoopbackHost);
    const { maxSessions, maxSessionsPerClient, evictIdleMs } = this.#options;
    const maxPerClient = maxSessionsPerClient ?? Math.ceil(maxSessions / 2);
    const full = this.#sessions.makeRoom(client, { maxSessions, maxPerClient, evictIdleMs });
    if (full !== undefined) {
      const whose = label === undefined ? "this client address" : `the token ${label}`;
      const limit = full === "client" ? maxPerClient : maxSessions;
      const message = `Too many sessions for ${full === "client" ? whose : "this server"} (${limit}), none idle for ${evictIdleMs / 1000} s; close one or try again later`;
      return sendError(response, 503, -32000, message);
    }
    await this.#startSession(request, response, body, client);
  }

  /**
   * Cancels requests whose response stream closed before their results were written. With no
   * event store the results could never be delivered, so they are cancelled as if the client had
   * sent notifications/cancelled (which aborts exactly those requests' signals, and no others).
   */
  #cancelUndelivered(session: HttpSession, ids: readonly RequestId[]): void {
    if (this.#sessions.get(session.id) !== session) return; // closing it aborted everything
    for (const requestId of ids) {
      session.transport.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "The connection closed before the result was sent" },
      });
    }
  }

  async #startSession(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    client: string | undefined,
  ): Promise<void> {
    if (!this.#sweeping) {
      // Started with the first session, so an endpoint that never serves holds no timer.
      this.#sweeping = true;
      this.#sessions.startSweeper();
    }
    const server = this.#options.createServer();
    let session: HttpSession | undefined;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = {
          id,
          client,
          calls: 0,
          server,
          transport,
          lastActivity: Date.now(),
          openRequests: 0,
          openStreams: 0,
          earlyCancels: new EarlyCancels(),
          cancelledStreams: new CancelledStreams(),
        };
        this.#sessions.add(session);
        this.#sessions.track(session, "POST", response);
      },
      onsessionclosed: (id) => void this.#sessions.drop(id),
    });
    transport.onclose = () => {
      if (session !== undefined) void this.#sessions.drop(session.id);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
    if (session === undefined) await server.close().catch(() => {});
  }
}

/** The POST body without requests the client cancelled before they arrived; undefined if none is left. */
function deliverable(session: HttpSession, body: unknown): unknown {
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? body : [body];
  const kept = session.earlyCancels.filter(messages);
  if (kept.length === messages.length) return body;
  if (kept.length === 0) return undefined;
  return batch ? kept : kept[0];
}
