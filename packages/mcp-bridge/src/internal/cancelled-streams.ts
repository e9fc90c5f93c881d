// The SDK answers a cancelled request with nothing (its result is dropped), so the SSE stream of
// the POST that carried it would stay open for the life of the session: an idle TCP connection
// held per cancelled call (the client's next request has to open a new one, and the server's
// connection cap is reached after a few hundred cancels), a keep-alive timer each, and a session
// that never counts as idle. This ends such a stream once its request is cancelled, when the POST
// carried that request alone: a batch's other answers still need their stream.
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { RequestId } from "./undeliverable-requests.ts";

interface MessageShape {
  method?: unknown;
  params?: { requestId?: unknown };
}

/** The response streams of one session that a cancel may end. */
export class CancelledStreams {
  readonly #lone = new Set<RequestId>();

  /** Watches a POST's response until it closes; only a POST carrying one request qualifies. */
  watch(
    response: { once(event: "close", listener: () => void): unknown },
    ids: readonly RequestId[],
  ): void {
    const id = ids[0];
    if (ids.length !== 1 || id === undefined) return;
    this.#lone.add(id);
    response.once("close", () => this.#lone.delete(id));
  }

  /** Ends the streams of the watched requests that `body`'s notifications/cancelled name. */
  endCancelled(
    transport: Pick<NodeStreamableHTTPServerTransport, "closeSSEStream">,
    body: unknown,
  ): void {
    for (const id of cancelledIds(body)) {
      if (this.#lone.delete(id)) transport.closeSSEStream(id);
    }
  }
}

/** The request ids named by the notifications/cancelled messages of a POST body. */
export function cancelledIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as MessageShape;
    if (method !== "notifications/cancelled") continue;
    const target = params?.requestId;
    if (typeof target === "string" || typeof target === "number") ids.push(target);
  }
  return ids;
}
