// Without an event store (resumability) the SDK's Streamable HTTP transport can deliver a request's
// result only on the HTTP response of the POST that carried it. When that response closes before it
// was finished (the client called close(), its TCP connection dropped), the result can never reach
// anyone; the SDK treats the disconnect as "not a cancel" and lets the handler run on. The bridge
// cancels those requests instead, so the DCC does not keep working for nobody.

/** A JSON-RPC request id. */
export type RequestId = string | number;

interface MessageShape {
  id?: unknown;
  method?: unknown;
}

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
export function requestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (isRequest(message)) ids.push(message.id as RequestId);
  }
  return ids;
}

/** The body without its requests (notifications and responses kept); undefined when none is left. */
export function withoutRequests(body: unknown): unknown {
  if (!Array.isArray(body)) return isRequest(body) ? undefined : body;
  const kept = body.filter((message) => !isRequest(message));
  return kept.length === 0 ? undefined : kept;
}

/**
 * Calls `cancel(ids)` once if `response` closes before it was finished, i.e. before the results of
 * the requests it carries were all written. A response that ends normally cancels nothing.
 */
export function cancelIfUndelivered(
  response: {
    once(event: "close", listener: () => void): unknown;
    readonly writableFinished: boolean;
  },
  ids: readonly RequestId[],
  cancel: (ids: readonly RequestId[]) => void,
): void {
  if (ids.length === 0) return;
  response.once("close", () => {
    if (!response.writableFinished) cancel(ids);
  });
}

function isRequest(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const { id, method } = message as MessageShape;
  return typeof method === "string" && (typeof id === "string" || typeof id === "number");
}
