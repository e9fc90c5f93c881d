import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { DccServerOptions } from "./dcc-server-options.ts";
import {
  buildMcpServer,
  type ResolvedRegistration,
  resolveRegistrations,
} from "./internal/build-mcp-server.ts";
import { CancelledStreams } from "./internal/cancelled-streams.ts";
import { EarlyCancels } from "./internal/early-cancels.ts";
import { checkAuth } from "./internal/http-config.ts";
import {
  bearerTokenMatches,
  checkHostAndOrigin,
  defaultAllowedHosts,
  readBody,
  sha256,
} from "./internal/http-guards.ts";
import { type HttpSession, HttpSessionTable } from "./internal/http-sessions.ts";
import {
  answerSomeRequestsAsJson,
  answersAsJson,
  releaseJsonAnswers,
} from "./internal/json-responses.ts";
import {
  cancelIfUndelivered,
  type RequestId,
  requestIds,
  withoutRequests,
} from "./internal/undeliverable-requests.ts";
import { JobManager } from "./job-manager.ts";

/** Options for {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions extends DccServerOptions {
  /** URL path of the MCP endpoint; requests for other paths get 404. Default: every path. */
  path?: string;
  /** Require `Authorization: Bearer <token>` on every request (at least 16 characters). */
  auth?: { token: string };
  /** Host header names accepted (no port). Default: the loopback names. */
  allowedHosts?: readonly string[];
  /** Origins accepted besides loopback pages calling a loopback server (e.g. `https://app.example`). */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** A session with no request and no open stream for this long is closed, in ms. Default 30 min. */
  sessionIdleMs?: number;
  /** Most sessions at once; more get 503. Default 64. */
  maxSessions?: number;
  /** How long `close()` waits for cancelled work to stop, in ms. Default 2000. */
  shutdownGraceMs?: number;
}

/**
 * A Streamable HTTP request handler for a `node:http` server you own:
 * `createServer(handler)`, or call it from your own routing. It never rejects (failures are
 * answered as JSON-RPC errors).
 */
export interface McpHttpHandler {
  /** Handles one HTTP request of the MCP endpoint. */
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The job manager shared by all sessions. */
  readonly jobs: JobManager;
  /** Number of open sessions. */
  readonly sessionCount: number;
  /**
   * Graceful shutdown: later requests get 503, calls and jobs in flight are cancelled (waiting up
   * to `shutdownGraceMs`), then every session closes. The listener is yours to close. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * MCP over Streamable HTTP with stateful sessions (one MCP server per session, so cancellation and
 * progress reach the running call), as a request handler. Host and Origin are checked against DNS
 * rebinding, with optional bearer auth and bounded bodies, sessions and jobs. `McpHttpServer` is
 * this handler on a listener it owns.
 * @throws {@link McpBridgeError} `INVALID_CONFIG` for a short token or inconsistent executors.
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const endpoint = new HttpEndpoint(options);
  const handler = (request: IncomingMessage, response: ServerResponse): Promise<void> =>
    endpoint.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendError(response, 500, -32603, `Internal error: ${String(error)}`);
      else response.end();
    });
  return Object.defineProperties(handler, {
    jobs: { value: endpoint.jobs, enumerable: true },
    sessionCount: { get: () => endpoint.sessionCount, enumerable: true },
    close: { value: () => endpoint.close(), enumerable: true },
  }) as McpHttpHandler;
}

/** The state and request handling behind {@link createMcpHttpHandler}. */
class HttpEndpoint {
  readonly jobs: JobManager;
  readonly #options: McpHttpHandlerOptions;
  readonly #registrations: ResolvedRegistration[];
  readonly #sessions: HttpSessionTable;
  readonly #allowedHosts: readonly string[];
  readonly #allowedOrigins: readonly string[];
  readonly #tokenDigest: Buffer | undefined;
  readonly #path: string | undefined;
  readonly #maxBodyBytes: number;
  readonly #maxSessions: number;
  readonly #quietTools: ReadonlySet<string>;
  #closing: Promise<void> | undefined;
  #sweeping = false;

  constructor(options: McpHttpHandlerOptions) {
    this.#options = options;
    checkAuth(options.auth);
    this.#registrations = resolveRegistrations(options);
    this.jobs = new JobManager({
      ...(options.jobStore === undefined ? {} : { store: options.jobStore }),
      ...(options.jobQueue === undefined ? {} : { queue: options.jobQueue }),
      ...(options.maxRunningJobs === undefined ? {} : { maxRunningJobs: options.maxRunningJobs }),
      ...(options.maxRunningCalls === undefined
        ? {}
        : { maxRunningCalls: options.maxRunningCalls }),
    });
    this.#sessions = new HttpSessionTable(options.sessionIdleMs ?? 30 * 60_000);
    this.#allowedHosts = (options.allowedHosts ?? defaultAllowedHosts("127.0.0.1")).map((name) =>
      name.toLowerCase(),
    );
    this.#allowedOrigins = options.allowedOrigins ?? [];
    this.#tokenDigest = options.auth === undefined ? undefined : sha256(options.auth.token);
    this.#path = options.path;
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#maxSessions = options.maxSessions ?? 64;
    // Search tools never notify, so their calls can be answered as plain JSON.
    this.#quietTools = new Set(this.#registrations.map((entry) => entry.searchToolName));
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Cancelling first lets each running call answer "cancelled" before its session goes away.
      await this.jobs.close(this.#options.shutdownGraceMs ?? 2000);
      await this.#sessions.closeAll();
    })();
    return this.#closing;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = checkHostAndOrigin(request, this.#allowedHosts, this.#allowedOrigins);
    if (refusal !== undefined) return sendError(response, 403, -32000, refusal);
    if (this.#tokenDigest !== undefined && !bearerTokenMatches(request, this.#tokenDigest)) {
      response.setHeader("WWW-Authenticate", 'Bearer realm="mcp"');
      return sendError(response, 401, -32001, "Unauthorized: missing or invalid bearer token");
    }
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (this.#path !== undefined && path !== this.#path)
      return sendError(response, 404, -32000, `Not found: ${path}`);
    if (this.#closing !== undefined)
      return sendError(response, 503, -32000, "Server is shutting down");
    const method = request.method ?? "GET";
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      response.setHeader("Allow", "GET, POST, DELETE");
      return sendError(response, 405, -32000, "Method not allowed.");
    }
    const sessionHeader = request.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    let body: unknown;
    if (method === "POST") {
      const read = await readBody(request, this.#maxBodyBytes);
      if (!read.ok) {
        return read.tooLarge
          ? sendError(
              response,
              413,
              -32000,
              `Payload Too Large: request body must not exceed ${this.#maxBodyBytes} bytes`,
            )
          : sendError(response, 400, -32000, "Bad Request: the request body could not be read");
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        return sendError(response, 400, -32700, "Parse error: Invalid JSON");
      }
    }
    if (sessionId !== undefined) {
      const session = this.#sessions.get(sessionId);
      if (session === undefined) return sendError(response, 404, -32001, "Session not found");
      this.#sessions.track(session, response);
      if (method === "POST") {
        const delivered = this.#deliverable(session, body);
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
          // A JSON answer is a single body the SDK ends only with its answers; leave it be.
          if (!answersAsJson(body, this.#quietTools)) session.cancelledStreams.watch(response, ids);
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
    if (this.#sessions.size >= this.#maxSessions) {
      return sendError(response, 503, -32000, "Too many sessions; close one or try again later");
    }
    // Checked again: close() may have run while the body was read.
    if (this.#closing !== undefined)
      return sendError(response, 503, -32000, "Server is shutting down");
    await this.#startSession(request, response, body);
  }

  /** The POST body without requests the client cancelled before they arrived; undefined if none is left. */
  #deliverable(session: HttpSession, body: unknown): unknown {
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    const kept = session.earlyCancels.filter(messages);
    if (kept.length === messages.length) return body;
    if (kept.length === 0) return undefined;
    return batch ? kept : kept[0];
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
    releaseJsonAnswers(session.transport, ids);
  }

  async #startSession(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    if (!this.#sweeping) {
      // Started with the first session, so a handler that never serves holds no timer.
      this.#sweeping = true;
      this.#sessions.startSweeper();
    }
    const server = buildMcpServer(this.#options, this.#registrations, this.jobs);
    let session: HttpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = {
          id,
          server,
          transport,
          lastActivity: Date.now(),
          openResponses: 0,
          earlyCancels: new EarlyCancels(),
          cancelledStreams: new CancelledStreams(),
        };
        this.#sessions.add(session);
        this.#sessions.track(session, response);
      },
      onsessionclosed: (id) => void this.#sessions.drop(id),
    });
    answerSomeRequestsAsJson(transport, (body) => answersAsJson(body, this.#quietTools));
    transport.onclose = () => {
      if (session !== undefined) void this.#sessions.drop(session.id);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
    if (session === undefined) await server.close().catch(() => {});
  }
}

function sendError(response: ServerResponse, status: number, code: number, message: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
