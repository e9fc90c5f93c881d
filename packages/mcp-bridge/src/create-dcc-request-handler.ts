import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import type { DccCompositionOptions } from "./dcc-composition-options.ts";
import type { DccServerAdapter } from "./dcc-server-adapter.ts";
import type { DccServerOptions } from "./dcc-server-options.ts";
import { composeAdapters } from "./internal/compose-adapters.ts";
import { authOf, checkAuth } from "./internal/http-config.ts";
import { pickHttpSettings } from "./internal/http-settings.ts";
import type { LabelledToken } from "./labelled-token.ts";
import { createMcpHttpHandler, type McpHttpHandlerOptions } from "./mcp-http-handler.ts";

/** Options for {@link createDccRequestHandler}: the adapters, and the HTTP endpoint's settings. */
export interface DccRequestHandlerOptions
  extends DccCompositionOptions,
    Omit<
      McpHttpHandlerOptions,
      keyof DccServerOptions | "auth" | "shutdownGraceMs" | "monitoredAdapters"
    > {
  /** Require `Authorization: Bearer <token>` on every request (at least 16 characters). */
  token?: string;
  /**
   * Bearer tokens with labels, accepted besides (or instead of) `token`: each call carries the
   * label of the one it used (tool-call event, audit log, traces). Labels and tokens must be
   * distinct, each token at least 16 characters.
   */
  tokens?: ReadonlyArray<LabelledToken>;
}

/** A Streamable HTTP request handler serving adapters, for a `node:http` server you own. */
export interface DccRequestHandler {
  /** Handles one HTTP request of the MCP endpoint; never rejects. */
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The adapters it serves, with their tools and status. */
  readonly adapters: readonly DccServerAdapter[];
  /** The Prometheus registry served at `GET /metrics`; register more metrics on it to serve them there too. */
  readonly metrics: Registry;
  /** Replaces the labelled `tokens`; see `McpHttpHandler.updateTokens`. */
  updateTokens(tokens: ReadonlyArray<LabelledToken>): void;
  /**
   * Graceful shutdown: later requests get 503, calls and jobs in flight are cancelled, sessions
   * close, then every executor's sandbox pool ends and every adapter closes. The listener is
   * yours to close. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Starts the adapters and returns the MCP endpoint serving them as a request handler, to mount
 * on an existing `node:http` server (`createServer(handler)`, or from your own routing). Use
 * {@link createDccServer} for a server that owns its listener.
 * @throws `McpBridgeError` `INVALID_CONFIG` (before any adapter starts) or `START_FAILED`.
 */
export async function createDccRequestHandler(
  options: DccRequestHandlerOptions,
): Promise<DccRequestHandler> {
  const { token, tokens, ...rest } = options;
  const auth = authOf(token, tokens);
  checkAuth(auth);
  const composition = await composeAdapters(rest);
  let handler: ReturnType<typeof createMcpHttpHandler>;
  try {
    handler = createMcpHttpHandler({
      ...pickHttpSettings(rest),
      ...composition.serverOptions,
      monitoredAdapters: composition.slots,
      ...(auth === undefined ? {} : { auth }),
    });
  } catch (error) {
    await composition.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= handler.close().finally(() => composition.close());
    return closing;
  };
  const handle = (request: IncomingMessage, response: ServerResponse): Promise<void> =>
    handler(request, response);
  return Object.defineProperties(handle, {
    adapters: { value: composition.slots, enumerable: true },
    metrics: { value: handler.metrics, enumerable: true },
    updateTokens: {
      value: (tokens: ReadonlyArray<LabelledToken>) => handler.updateTokens(tokens),
      enumerable: true,
    },
    close: { value: close, enumerable: true },
  }) as DccRequestHandler;
}
