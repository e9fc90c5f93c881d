// The 2026-07-28 leg of the HTTP endpoint: every request is answered on its own by a fresh
// McpServer through the SDK's per-request handler. Nothing about the client is kept between
// requests: a call's job id, cancel token and materialized script are server-owned. Progress and
// log lines go on the request's own response, which then becomes an SSE stream; a client that
// closes that response cancels the call (the SDK aborts the handler's signal).
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AuthInfo,
  classifyInboundRequest,
  createMcpHandler,
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

  constructor(options: ModernRequestsOptions) {
    // 'reject' only matters for traffic routed here by mistake: 2025 requests go to the sessions.
    this.#handler = createMcpHandler(() => options.createServer(), {
      legacy: "reject",
      maxRequestBodySize: options.maxBodyBytes,
    });
  }

  /**
   * Whether a request belongs to the 2025-11-25 leg: the SDK's own classification (the one
   * `isLegacyRequest` runs), from the headers it reads and the parsed POST body (undefined for
   * a request without one). No web Request is built for it: this runs on every request.
   */
  isLegacy(request: IncomingMessage, body: unknown): boolean {
    const outcome = classifyInboundRequest({
      httpMethod: request.method ?? "GET",
      ...header("protocolVersionHeader", request.headers["mcp-protocol-version"]),
      ...header("mcpMethodHeader", request.headers["mcp-method"]),
      ...header("mcpNameHeader", request.headers["mcp-name"]),
      ...(body === undefined ? {} : { body }),
    });
    return outcome.kind === "legacy";
  }

  /**
   * Answers one 2026-07-28 request (its body already parsed). The request's signal aborts when
   * the response closes before it was finished: the SDK then aborts the handler's signal, which
   * cancels the call.
   */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const abort = new AbortController();
    response.once("close", () => {
      if (!response.writableFinished) abort.abort();
    });
    if (response.destroyed) abort.abort();
    const answer = await this.#handler.fetch(
      new Request(`http://localhost${request.url ?? "/"}`, {
        method: "POST",
        headers: webHeaders(request.headers),
        signal: abort.signal,
      }),
      {
        parsedBody: body,
        // Set by the endpoint for a labelled token; the legacy transport reads it from the request.
        ...((request as { auth?: AuthInfo }).auth === undefined
          ? {}
          : { authInfo: (request as { auth?: AuthInfo }).auth }),
      },
    );
    await writeResponse(answer, response, abort.signal);
  }

  /** Aborts requests in flight and closes their servers. */
  close(): Promise<void> {
    return this.#handler.close();
  }
}

/** One optional header of the classification, joined as the web `Headers.get` joins repeats. */
function header<K extends string>(
  key: K,
  value: string | string[] | undefined,
): { [P in K]?: string } {
  if (value === undefined) return {};
  return { [key]: Array.isArray(value) ? value.join(", ") : value } as { [P in K]?: string };
}

function webHeaders(headers: IncomingMessage["headers"]): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) web.append(name, each);
    else web.set(name, value);
  }
  return web;
}

/**
 * Writes a web Response to a node response: a JSON answer in one write with its length (the
 * common case, and the cheapest), an SSE stream chunk by chunk until it ends or the client goes.
 */
async function writeResponse(
  answer: Response,
  response: ServerResponse,
  gone: AbortSignal,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of answer.headers) headers[name] = value;
  const stream = headers["content-type"]?.startsWith("text/event-stream") === true;
  if (answer.body === null || !stream) {
    const text = answer.body === null ? "" : Buffer.from(await answer.arrayBuffer());
    headers["content-length"] = String(text.length);
    response.writeHead(answer.status, headers);
    response.end(text);
    return;
  }
  response.writeHead(answer.status, headers);
  response.flushHeaders();
  const reader = answer.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => {});
  gone.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone.aborted) break;
      if (!response.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = (): void => {
            response.off("drain", settle);
            response.off("close", settle);
            resolve();
          };
          response.once("drain", settle);
          response.once("close", settle);
        });
      }
    }
  } catch {
    // The stream failed or was cancelled because the client left: nothing more to write.
  } finally {
    gone.removeEventListener("abort", stop);
    response.end();
  }
}
