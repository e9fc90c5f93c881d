// The JSON-RPC error answer the endpoint writes itself, before any SDK transport sees a request.
import type { ServerResponse } from "node:http";

/** Ends `response` with `status` and a JSON-RPC error body (`id: null`). */
export function sendError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
