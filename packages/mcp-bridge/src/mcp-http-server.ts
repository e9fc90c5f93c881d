import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { checkListener } from "./internal/http-config.ts";
import { defaultAllowedHosts } from "./internal/http-guards.ts";
import type { JobManager } from "./job-manager.ts";
import type { LabelledToken } from "./labelled-token.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";
import {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from "./mcp-http-handler.ts";

/** Options for {@link McpHttpServer} and {@link createMcpHttpServer}. */
export interface McpHttpServerOptions extends McpHttpHandlerOptions {
  /** TCP port; 0 picks a free one. Default 8765. */
  port?: number;
  /** Address to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** URL path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Host header names accepted (no port). Default: loopback names, plus `host` when it is a name. */
  allowedHosts?: readonly string[];
  /** Allow binding a non-loopback address without `auth`. Default false. */
  allowRemoteWithoutAuth?: boolean;
}

/** A started server. */
export interface McpHttpServerHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  url: string;
  /** Graceful shutdown: cancels work in flight, closes sessions, stops listening. */
  close(): Promise<void>;
}

/**
 * MCP over Streamable HTTP for protocol revisions 2026-07-28 (one request at a time) and
 * 2025-11-25 (stateful sessions, so cancellation and progress reach the running call): the
 * request handler of {@link createMcpHttpHandler} on a listener it owns. Loopback by default, Host and Origin checked against DNS rebinding, optional
 * bearer auth, bounded bodies, sessions, connections and jobs. `GET /healthz`, `/readyz` and
 * `/metrics` are served beside the endpoint, behind the same checks.
 */
export class McpHttpServer {
  readonly #options: McpHttpServerOptions;
  readonly #handler: McpHttpHandler;
  #http: Server | undefined;
  #url: string | undefined;
  #closing: Promise<void> | undefined;

  /** @throws {@link McpBridgeError} `INVALID_CONFIG` for unsafe or inconsistent options. */
  constructor(options: McpHttpServerOptions) {
    this.#options = options;
    checkListener(options);
    const host = options.host ?? "127.0.0.1";
    this.#handler = createMcpHttpHandler({
      ...options,
      path: options.path ?? "/mcp",
      allowedHosts: options.allowedHosts ?? defaultAllowedHosts(host),
    });
  }

  /** The job manager shared by all sessions. */
  get jobs(): JobManager {
    return this.#handler.jobs;
  }

  /** The Prometheus registry served at `GET /metrics`; see {@link McpHttpHandler.metrics}. */
  get metrics(): Registry {
    return this.#handler.metrics;
  }

  /** The endpoint URL once started. */
  get url(): string | undefined {
    return this.#url;
  }

  /** Number of open 2025-11-25 sessions. */
  get sessionCount(): number {
    return this.#handler.sessionCount;
  }

  /**
   * Starts listening.
   * @throws {@link McpBridgeError} `INVALID_STATE` when already started or closed.
   */
  async start(): Promise<McpHttpServerHandle> {
    if (this.#http !== undefined || this.#closing !== undefined) {
      throw new McpBridgeError({
        code: "INVALID_STATE",
        message: "The server was already started",
      });
    }
    const http = createServer(this.#handler);
    http.headersTimeout = 30_000;
    http.requestTimeout = 60_000;
    http.maxConnections = (this.#options.maxSessions ?? 64) * 4 + 16;
    this.#http = http;
    const host = this.#options.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(this.#options.port ?? 8765, host, () => {
        http.off("error", reject);
        resolve();
      });
    });
    const { port } = http.address() as AddressInfo;
    const urlHost = host.includes(":") ? `[${host}]` : host;
    this.#url = `http://${urlHost}:${port}${this.#options.path ?? "/mcp"}`;
    return { url: this.#url, close: () => this.close() };
  }

  /** Replaces the labelled tokens; see {@link McpHttpHandler.updateTokens}. */
  updateTokens(tokens: ReadonlyArray<LabelledToken>): void {
    this.#handler.updateTokens(tokens);
  }

  /** Graceful shutdown: stops listening, cancels calls and jobs in flight, closes sessions. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const http = this.#http;
      const stopped =
        http === undefined
          ? Promise.resolve()
          : new Promise<void>((resolve) => http.close(() => resolve()));
      await this.#handler.close();
      http?.closeAllConnections();
      await stopped;
    })();
    return this.#closing;
  }
}

/** Creates an {@link McpHttpServer}; call `start()` on it to listen. */
export function createMcpHttpServer(options: McpHttpServerOptions): McpHttpServer {
  return new McpHttpServer(options);
}
