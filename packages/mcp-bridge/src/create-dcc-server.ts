import type { Readable, Writable } from "node:stream";
import type { Registry } from "prom-client";
import type { DccRequestHandlerOptions } from "./create-dcc-request-handler.ts";
import type { DccServerAdapter } from "./dcc-server-adapter.ts";
import { composeAdapters } from "./internal/compose-adapters.ts";
import { authOf, checkListener } from "./internal/http-config.ts";
import { pickHttpSettings } from "./internal/http-settings.ts";
import type { LabelledToken } from "./labelled-token.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";
import { createMcpHttpServer } from "./mcp-http-server.ts";
import { runStdioServer } from "./stdio-server.ts";

/** Options for {@link createDccServer}. */
export interface CreateDccServerOptions extends DccRequestHandlerOptions {
  /** `"http"` (Streamable HTTP, the default) or `"stdio"`. */
  transport?: "http" | "stdio";
  /** HTTP port; 0 picks a free one. Default 8765. */
  port?: number;
  /** HTTP address to bind. Default `127.0.0.1` (loopback only; another address needs `token` or `tokens`). */
  host?: string;
  /** URL path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Host header names accepted (no port). Default: loopback names, plus `host` when it is a name. */
  allowedHosts?: readonly string[];
  /** Allow binding a non-loopback address without `token`. Default false. */
  allowRemoteWithoutAuth?: boolean;
  /** stdio only: where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** stdio only: where responses go; nothing else may write to it. Default `process.stdout`. */
  stdout?: Writable;
}

/** A running server composed from adapters. */
export interface DccServer {
  /** The MCP endpoint over HTTP (`http://127.0.0.1:8765/mcp`); `undefined` over stdio. */
  readonly url: string | undefined;
  /** The adapters it serves, with their tools, executors and status. */
  readonly adapters: readonly DccServerAdapter[];
  /**
   * Over HTTP, the Prometheus registry served at `GET /metrics` (register more metrics on it to
   * serve them there too); `undefined` over stdio.
   */
  readonly metrics: Registry | undefined;
  /**
   * Replaces the labelled `tokens` (the unlabelled `token` stays), e.g. to revoke one without a
   * restart; the next request is checked against the new list.
   * @throws `McpBridgeError` `INVALID_STATE` over stdio or for a server started without a token;
   *   `INVALID_CONFIG` for tokens `tokens` would refuse (the old ones then stay).
   */
  updateTokens(tokens: ReadonlyArray<LabelledToken>): void;
  /**
   * Graceful shutdown, in order: stop accepting requests, cancel running calls and jobs (waiting
   * up to `shutdownGraceMs`), close sessions, end every executor's sandbox pool, close every
   * adapter. Idempotent.
   */
  close(): Promise<void>;
  /** Settles once the server has closed (by `close()`, or over stdio when stdin ends). */
  readonly closed: Promise<void>;
}

/**
 * Builds and starts an MCP server from one or several adapters, over Streamable HTTP or stdio.
 * Every adapter is started side by side; each gets its commands on its own registry and
 * dispatcher, its own executor and sandbox pool, and a pair of tools (`dcc_search`/`dcc_execute`
 * with one adapter, `<name>_search`/`<name>_execute` with several). An adapter that fails to
 * start, loses its host or throws in a command only affects its own tools.
 * @throws `McpBridgeError` `INVALID_CONFIG` (before any adapter starts), `START_FAILED` when no
 *   adapter started; a listen error (port in use) after every adapter was closed again.
 */
export async function createDccServer(options: CreateDccServerOptions): Promise<DccServer> {
  const { transport, port, host, token, tokens, allowRemoteWithoutAuth, stdin, stdout, ...rest } =
    options;
  const auth = authOf(token, tokens);
  if (transport !== "stdio") {
    checkListener({
      ...(host === undefined ? {} : { host }),
      ...(auth === undefined ? {} : { auth }),
      ...(allowRemoteWithoutAuth === undefined ? {} : { allowRemoteWithoutAuth }),
    });
  }
  const composition = await composeAdapters(rest);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let stopTransport: () => Promise<void> = async () => {};
  let url: string | undefined;
  let metrics: Registry | undefined;
  let updateTokens = (_tokens: ReadonlyArray<LabelledToken>): void => {
    throw new McpBridgeError({
      code: "INVALID_STATE",
      message: "Tokens apply to the HTTP transport; this server serves stdio",
    });
  };
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await stopTransport();
      } finally {
        await composition.close();
        markClosed();
      }
    })();
    return closing;
  };
  try {
    if (transport === "stdio") {
      const handle = await runStdioServer({
        ...composition.serverOptions,
        ...(rest.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: rest.shutdownGraceMs }),
        ...(stdin === undefined ? {} : { stdin }),
        ...(stdout === undefined ? {} : { stdout }),
      });
      stopTransport = () => handle.close();
      void handle.closed.then(() => close());
    } else {
      const http = createMcpHttpServer({
        ...pickHttpSettings(rest),
        ...composition.serverOptions,
        monitoredAdapters: composition.slots,
        ...(port === undefined ? {} : { port }),
        ...(host === undefined ? {} : { host }),
        ...(auth === undefined ? {} : { auth }),
        ...(allowRemoteWithoutAuth === undefined ? {} : { allowRemoteWithoutAuth }),
      });
      stopTransport = () => http.close();
      metrics = http.metrics;
      updateTokens = (tokens) => http.updateTokens(tokens);
      url = (await http.start()).url;
    }
  } catch (error) {
    await stopTransport().catch(() => {});
    await composition.close();
    throw error;
  }
  return {
    url,
    adapters: composition.slots,
    metrics,
    updateTokens: (tokens) => updateTokens(tokens),
    close,
    closed,
  };
}
