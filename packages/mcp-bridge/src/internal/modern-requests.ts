// The 2026-07-28 leg of the HTTP endpoint: every request is answered on its own by a fresh
// McpServer through the SDK's per-request handler. Nothing about the client is kept between
// requests: a call's job id, cancel token and materialized script are server-owned. Progress and
// log lines go on the request's own response, which then becomes an SSE stream; a client that
// closes that response cancels the call (the SDK aborts the handler's signal).
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type NodeIncomingMessageLike,
  type NodeMcpRequestHandler,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpServer,
} from "@modelcontextprotocol/server";

/** Options for {@link ModernRequests}. */
export interface ModernRequestsOptions {
  /** A new MCP server for one request. */
  createServer: () => McpServer;
  maxBodyBytes: number;
}

/** Classifies requests by revision and answers the 2026-07-28 ones. */
export class ModernRequests {
  readonly #handler: McpHttpHandler;
  readonly #node: NodeMcpRequestHandler;
  readonly #maxBodyBytes: number;

  constructor(options: ModernRequestsOptions) {
    this.#maxBodyBytes = options.maxBodyBytes;
    // 'reject' only matters for traffic routed here by mistake: 2025 requests go to the sessions.
    this.#handler = createMcpHandler(() => options.createServer(), {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes,
    });
    this.#node = toNodeHandler(this.#handler, { maxRequestBodySize: options.maxBodyBytes });
  }

  /**
   * Whether a request belongs to the 2025-11-25 leg (the SDK's own classification: no
   * per-request `_meta` envelope, or a GET/DELETE session operation). `body` is the parsed POST
   * body, or undefined for a request without one.
   */
  async isLegacy(request: IncomingMessage, body: unknown): Promise<boolean> {
    if (request.method !== "POST") return true;
    const probe = await toWebRequest(asNodeRequest(request), body, {
      maxRequestBodySize: this.#maxBodyBytes,
    });
    return isLegacyRequest(probe, body, { maxRequestBodySize: this.#maxBodyBytes });
  }

  /** Answers one 2026-07-28 request (its body already parsed). */
  handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    return this.#node(asNodeRequest(request), response, body);
  }

  /** Aborts requests in flight and closes their servers. */
  close(): Promise<void> {
    return this.#handler.close();
  }
}

// IncomingMessage declares `auth` nowhere, which exactOptionalPropertyTypes holds against it.
function asNodeRequest(request: IncomingMessage): NodeIncomingMessageLike {
  return request as unknown as NodeIncomingMessageLike;
}
