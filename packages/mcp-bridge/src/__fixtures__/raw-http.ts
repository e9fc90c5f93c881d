// Plain node:http requests with full control over headers (fetch refuses to set Host).
import { request } from "node:http";

/** A raw response. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request and reads the whole response (bounded by `timeoutMs` of silence, 60 s: a first script on a loaded machine starts its sandbox first). */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    /** Local address to send from (another loopback address is another client). */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "POST",
        headers: options.headers ?? {},
        timeout: options.timeoutMs ?? 60_000,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("request timed out")));
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Headers a Streamable HTTP client sends with a JSON-RPC POST. */
export const jsonRpcHeaders: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** A valid initialize request body. */
export const initializeBody: string = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});

/** Headers a 2026-07-28 client sends with a request of `method` (and tool `name`). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    ...jsonRpcHeaders,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

/** A 2026-07-28 request body: `params` with the per-request `_meta` envelope added. */
export function modernBody(
  id: number,
  method: string,
  params: Record<string, unknown> = {},
): string {
  const meta = (params["_meta"] ?? {}) as Record<string, unknown>;
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
        ...meta,
      },
    },
  });
}
