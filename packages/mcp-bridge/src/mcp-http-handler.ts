import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Registry } from "prom-client";
import type { DccServerAdapter } from "./dcc-server-adapter.ts";
import type { DccServerOptions } from "./dcc-server-options.ts";
import {
  buildMcpServer,
  type ResolvedRegistration,
  resolveRegistrations,
} from "./internal/build-mcp-server.ts";
import { labelledAuthInfo } from "./internal/call-identity.ts";
import { healthPaths, serveHealthRoute } from "./internal/health-routes.ts";
import { checkAuth, checkSessionSettings } from "./internal/http-config.ts";
import {
  checkHostAndOrigin,
  defaultAllowedHosts,
  matchBearerToken,
  readBody,
  refuseTooLarge,
  sha256,
  type TokenDigest,
} from "./internal/http-guards.ts";
import { LegacySessions } from "./internal/legacy-sessions.ts";
import { ModernRequests } from "./internal/modern-requests.ts";
import { sendError } from "./internal/send-error.ts";
import { ServerMetrics } from "./internal/server-metrics.ts";
import { JobManager } from "./job-manager.ts";
import type { LabelledToken } from "./labelled-token.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";

/** Options for {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions extends DccServerOptions {
  /** URL path of the MCP endpoint; requests for other paths get 404. Default: every path. */
  path?: string;
  /**
   * Require `Authorization: Bearer <token>` on every request: `token` (at least 16 characters),
   * or any of the labelled `tokens`, whose label each call then carries (in
   * the tool-call event's `tokenLabel`, the audit log, traces). Both may be given. Labels and
   * tokens must be distinct; a request is compared with every configured token in constant time.
   */
  auth?: { token?: string; tokens?: ReadonlyArray<LabelledToken> };
  /** Host header names accepted (no port). Default: the loopback names. */
  allowedHosts?: readonly string[];
  /** Origins accepted besides loopback pages calling a loopback server (e.g. `https://app.example`). */
  allowedOrigins?: readonly string[];
  /** Largest request body in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * A 2025-11-25 session with no request and no open stream for this long is closed, in ms (its
   * client then gets 404 and starts a new session, as the revision says). Default 5 min.
   */
  sessionIdleMs?: number;
  /**
   * How long a session that made calls must have been idle (no request for this long, none being
   * answered) to give way to a new session when the table, or its client's share, is full, in
   * ms. A session that never made a call gives way at once; an open GET stream does not count as
   * activity. Default 60 000.
   */
  sessionEvictIdleMs?: number;
  /**
   * Most sessions at once. When full, a session gives way to the new one (see
   * `sessionEvictIdleMs`); with none that may, the new session gets 503. Default 64.
   */
  maxSessions?: number;
  /**
   * Most sessions one client may hold, with the same rule for giving way among its own. A client
   * is the label of the labelled token its requests present; without one, its remote address,
   * except loopback: every local client shares that address, so there it has no share of its own
   * (give local clients labelled tokens to cap each). Default: half of `maxSessions`.
   */
  maxSessionsPerClient?: number;
  /** How long `close()` waits for cancelled work to stop, in ms. Default 2000. */
  shutdownGraceMs?: number;
  /**
   * Adapters whose host status `GET /readyz` and `GET /metrics` report (`createDccServer` passes
   * its own). Default: none, so `/readyz` answers 200 while the server serves.
   */
  monitoredAdapters?: readonly DccServerAdapter[];
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
  /** Number of open 2025-11-25 sessions (2026-07-28 requests hold none). */
  readonly sessionCount: number;
  /**
   * This handler's own Prometheus registry, served at `GET /metrics`; register more metrics on
   * it to serve them there too.
   */
  readonly metrics: Registry;
  /**
   * Replaces the labelled tokens (the unlabelled `auth.token` stays), e.g. to revoke one without
   * a restart: the next request is checked against the new list; sessions already open keep
   * working until their next request, which the new list must admit.
   * @throws {@link McpBridgeError} `INVALID_STATE` when the handler was made without `auth`;
   *   `INVALID_CONFIG` for tokens that `auth` would refuse (the old ones then stay).
   */
  updateTokens(tokens: ReadonlyArray<LabelledToken>): void;
  /**
   * Graceful shutdown: later requests get 503, calls and jobs in flight are cancelled (waiting up
   * to `shutdownGraceMs`), then every session closes. The listener is yours to close. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * MCP over Streamable HTTP, as a request handler, for both protocol revisions on one endpoint:
 * 2026-07-28 requests are answered one by one (a fresh MCP server each, progress and logs on the
 * request's own stream), 2025-11-25 clients get stateful sessions (one MCP server per session, so
 * `notifications/cancelled` and progress reach the running call). Host and Origin are checked
 * against DNS rebinding and the optional bearer token is required on both, with bounded bodies,
 * sessions and jobs. `McpHttpServer` is this handler on a listener it owns.
 *
 * Beside the MCP endpoint, behind the same Host checks and token, it answers `GET /healthz`
 * (200 while the process serves), `GET /readyz` (200 when every adapter's host is ready, else 503
 * with the reasons as JSON) and `GET /metrics` (Prometheus text format, on a registry of its own).
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
    metrics: { value: endpoint.metrics.registry, enumerable: true },
    updateTokens: {
      value: (tokens: ReadonlyArray<LabelledToken>) => endpoint.updateTokens(tokens),
      enumerable: true,
    },
    close: { value: () => endpoint.close(), enumerable: true },
  }) as McpHttpHandler;
}

/** The digests of every configured token, with their labels. */
function tokenDigests(auth: {
  token?: string;
  tokens?: ReadonlyArray<LabelledToken>;
}): TokenDigest[] {
  const digests: TokenDigest[] = [];
  if (auth.token !== undefined) digests.push({ digest: sha256(auth.token), label: undefined });
  for (const entry of auth.tokens ?? []) {
    digests.push({ digest: sha256(entry.token), label: entry.label });
  }
  return digests;
}

/** The state and request handling behind {@link createMcpHttpHandler}. */
class HttpEndpoint {
  readonly jobs: JobManager;
  readonly metrics: ServerMetrics;
  readonly #options: McpHttpHandlerOptions;
  readonly #registrations: ResolvedRegistration[];
  readonly #legacy: LegacySessions;
  readonly #modern: ModernRequests;
  readonly #allowedHosts: readonly string[];
  readonly #allowedOrigins: readonly string[];
  #tokens: readonly TokenDigest[] | undefined;
  readonly #path: string | undefined;
  readonly #maxBodyBytes: number;
  #closing: Promise<void> | undefined;

  constructor(options: McpHttpHandlerOptions) {
    checkAuth(options.auth);
    checkSessionSettings(options);
    this.#registrations = resolveRegistrations(options);
    this.jobs = new JobManager({
      ...(options.jobStore === undefined ? {} : { store: options.jobStore }),
      ...(options.jobQueue === undefined ? {} : { queue: options.jobQueue }),
      ...(options.syncCallsOnQueue === true ? { syncCallsOnQueue: true } : {}),
      ...(options.maxRunningJobs === undefined ? {} : { maxRunningJobs: options.maxRunningJobs }),
      ...(options.maxRunningCalls === undefined
        ? {}
        : { maxRunningCalls: options.maxRunningCalls }),
    });
    const metrics = new ServerMetrics({
      jobs: this.jobs,
      adapters: options.monitoredAdapters ?? [],
    });
    this.metrics = metrics;
    const observer = options.onToolCall;
    // Every call is counted, then handed on to the caller's own observer.
    this.#options = {
      ...options,
      onToolCall: (event) => {
        metrics.record(event);
        observer?.(event);
      },
    };
    this.#allowedHosts = (options.allowedHosts ?? defaultAllowedHosts("127.0.0.1")).map((name) =>
      name.toLowerCase(),
    );
    this.#allowedOrigins = options.allowedOrigins ?? [];
    this.#tokens = options.auth === undefined ? undefined : tokenDigests(options.auth);
    this.#path = options.path;
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    const createServer = () => buildMcpServer(this.#options, this.#registrations, this.jobs);
    const maxSessions = options.maxSessions ?? 64;
    this.#legacy = new LegacySessions({
      createServer,
      idleMs: options.sessionIdleMs ?? 5 * 60_000,
      evictIdleMs: options.sessionEvictIdleMs ?? 60_000,
      maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient,
      closing: () => this.#closing !== undefined,
    });
    this.#modern = new ModernRequests({ createServer, maxBodyBytes: this.#maxBodyBytes });
  }

  get sessionCount(): number {
    return this.#legacy.size;
  }

  updateTokens(tokens: ReadonlyArray<LabelledToken>): void {
    const auth = this.#options.auth;
    if (auth === undefined) {
      throw new McpBridgeError({
        code: "INVALID_STATE",
        message: "This server was started without auth; tokens cannot be added to it",
      });
    }
    const next = { ...(auth.token === undefined ? {} : { token: auth.token }), tokens };
    checkAuth(next);
    this.#tokens = tokenDigests(next);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Cancelling first lets each running call answer "cancelled" before its stream goes away.
      await this.jobs.close(this.#options.shutdownGraceMs ?? 2000);
      await Promise.all([this.#legacy.closeAll(), this.#modern.close()]);
    })();
    return this.#closing;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // The same gates for both revisions, before either leg sees the request.
    const refusal = checkHostAndOrigin(request, this.#allowedHosts, this.#allowedOrigins);
    if (refusal !== undefined) return sendError(response, 403, -32000, refusal);
    if (this.#tokens !== undefined) {
      const token = matchBearerToken(request, this.#tokens);
      if (token === undefined) {
        response.setHeader("WWW-Authenticate", 'Bearer realm="mcp"');
        return sendError(response, 401, -32001, "Unauthorized: missing or invalid bearer token");
      }
      // The SDK hands `request.auth` on to the call's handler (both revisions, see ModernRequests).
      if (token.label !== undefined) {
        (request as IncomingMessage & { auth?: AuthInfo }).auth = labelledAuthInfo(token.label);
      }
    }
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (healthPaths.has(path) && path !== this.#path) {
      return serveHealthRoute(path, request, response, {
        adapters: this.#options.monitoredAdapters ?? [],
        metrics: this.metrics,
        closing: this.#closing !== undefined,
        queue: this.jobs.queue,
      });
    }
    if (this.#path !== undefined && path !== this.#path)
      return sendError(response, 404, -32000, `Not found: ${path}`);
    if (this.#closing !== undefined)
      return sendError(response, 503, -32000, "Server is shutting down");
    const method = request.method ?? "GET";
    if (method !== "POST" && method !== "GET" && method !== "DELETE") {
      response.setHeader("Allow", "GET, POST, DELETE");
      return sendError(response, 405, -32000, "Method not allowed.");
    }
    let body: unknown;
    if (method === "POST") {
      const read = await readBody(request, this.#maxBodyBytes);
      if (!read.ok) {
        return read.tooLarge
          ? refuseTooLarge(request, response, this.#maxBodyBytes)
          : sendError(response, 400, -32000, "Bad Request: the request body could not be read");
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        return sendError(response, 400, -32700, "Parse error: Invalid JSON");
      }
    }
    if (this.#modern.isLegacy(request, body)) {
      return this.#legacy.handle(request, response, body);
    }
    // Checked again: close() may have run while the body was read.
    if (this.#closing !== undefined)
      return sendError(response, 503, -32000, "Server is shutting down");
    return this.#modern.handle(request, response, body);
  }
}
