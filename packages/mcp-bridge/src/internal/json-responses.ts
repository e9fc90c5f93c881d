// The SDK's Streamable HTTP transport answers every POST either as an SSE stream or as one JSON
// body (`enableJsonResponse`, fixed per transport). A JSON body skips the web stream, the SSE
// framing and the client's event-stream parser, about a millisecond per call on loopback, but it
// cannot carry progress or log notifications. This lets the bridge choose per POST: requests that
// can never notify (see `answersAsJson`) get JSON, everything else keeps its SSE stream.
//
// The choice reaches into the SDK 1.32 transport's internals (pinned exactly in package.json):
// with a parsed body and no event store, `handlePostRequest` reads the flag synchronously before
// its first await for a non-initialize request, and `send` does so for every message. Setting the
// flag around those synchronous stretches makes it per stream. When the internals are not as
// expected, nothing is changed and every POST keeps SSE.
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

interface StreamEntry {
  resolveJson?: unknown;
}

interface WebTransportInternals {
  _enableJsonResponse: boolean;
  _eventStore?: unknown;
  _streamMapping: Map<string, StreamEntry>;
  _requestToStreamMapping: Map<string | number, string>;
  handlePostRequest(request: unknown, options?: { parsedBody?: unknown }): Promise<unknown>;
  send(message: unknown, options?: { relatedRequestId?: string | number }): Promise<void>;
}

/**
 * Makes `transport` answer a POST as plain JSON when `wantsJson(parsedBody)` says so. Returns
 * false (and changes nothing) when the SDK's internals are not the expected ones.
 */
export function answerSomeRequestsAsJson(
  transport: StreamableHTTPServerTransport,
  wantsJson: (parsedBody: unknown) => boolean,
): boolean {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<WebTransportInternals> })
    ._webStandardTransport;
  if (!hasExpectedShape(inner)) return false;
  const handlePostRequest = inner.handlePostRequest;
  const send = inner.send;
  inner.handlePostRequest = (request, options) => {
    inner._enableJsonResponse = options?.parsedBody !== undefined && wantsJson(options.parsedBody);
    try {
      return handlePostRequest.call(inner, request, options);
    } finally {
      inner._enableJsonResponse = false;
    }
  };
  inner.send = (message, options) => {
    inner._enableJsonResponse = streamOf(inner, message, options)?.resolveJson !== undefined;
    try {
      return send.call(inner, message, options);
    } finally {
      inner._enableJsonResponse = false;
    }
  };
  return true;
}

/**
 * Forgets the pending JSON answers of `ids` (requests cancelled because their response closed):
 * a cancelled request is never answered, so its entries would otherwise stay in the transport.
 */
export function releaseJsonAnswers(
  transport: StreamableHTTPServerTransport,
  ids: readonly (string | number)[],
): void {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<WebTransportInternals> })
    ._webStandardTransport;
  if (!hasExpectedShape(inner)) return;
  for (const id of ids) {
    const streamId = inner._requestToStreamMapping.get(id);
    if (streamId === undefined || inner._streamMapping.get(streamId)?.resolveJson === undefined)
      continue;
    inner._requestToStreamMapping.delete(id);
    inner._streamMapping.delete(streamId);
  }
}

/**
 * Whether a POST body can be answered as JSON: one `tools/call` of a tool in `quietTools` (tools
 * that never send notifications) that asks for no progress.
 */
export function answersAsJson(body: unknown, quietTools: ReadonlySet<string>): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (method !== "tools/call" || typeof params !== "object" || params === null) return false;
  const { name, _meta } = params as { name?: unknown; _meta?: unknown };
  if (typeof name !== "string" || !quietTools.has(name)) return false;
  return (
    typeof _meta !== "object" ||
    _meta === null ||
    (_meta as { progressToken?: unknown }).progressToken === undefined
  );
}

function hasExpectedShape(
  inner: Partial<WebTransportInternals> | undefined,
): inner is WebTransportInternals {
  return (
    inner !== undefined &&
    inner._enableJsonResponse === false &&
    inner._eventStore === undefined &&
    inner._streamMapping instanceof Map &&
    inner._requestToStreamMapping instanceof Map &&
    typeof inner.handlePostRequest === "function" &&
    typeof inner.send === "function"
  );
}

function streamOf(
  inner: WebTransportInternals,
  message: unknown,
  options: { relatedRequestId?: string | number } | undefined,
): StreamEntry | undefined {
  const { id, method } = message as { id?: unknown; method?: unknown };
  const requestId =
    method === undefined && (typeof id === "string" || typeof id === "number")
      ? id
      : options?.relatedRequestId;
  if (requestId === undefined) return undefined;
  const streamId = inner._requestToStreamMapping.get(requestId);
  return streamId === undefined ? undefined : inner._streamMapping.get(streamId);
}
