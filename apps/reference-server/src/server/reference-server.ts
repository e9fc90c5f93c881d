import type { Readable, Writable } from "node:stream";
import {
  createAdapterExecutor,
  type DccAdapter,
  type DccApiExecutor,
  type ExecutorLimits,
} from "@dcc/executor";
import {
  createMcpHttpServer,
  JobManager,
  type McpHttpServer,
  registerDccApiExecutor,
  runStdioServer,
} from "@dcc/mcp-bridge";
import { createMayaAdapter } from "../adapter/maya-adapter.ts";

/** Options for {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /** `"http"` (Streamable HTTP, the default) or `"stdio"`. */
  transport?: "http" | "stdio";
  /** HTTP port; 0 picks a free one. Default 8765. */
  port?: number;
  /** HTTP address to bind. Default `127.0.0.1`. */
  host?: string;
  /** Require `Authorization: Bearer <token>` over HTTP (at least 16 characters). */
  token?: string;
  /** Folder for scene files (`file` rename/save/open). Scene files are disabled without it. */
  dataDir?: string;
  /**
   * Folder for materialized scripts: a `dcc_execute` script that only defines a typed `main` is
   * stored there and can be called again with `file_path` + `params`. Disabled without it.
   */
  scriptsDir?: string;
  /** The DCC behind the server; the simulated Maya scene by default. */
  adapter?: DccAdapter;
  /** Overrides of the executor's sandbox limits. */
  limits?: Partial<ExecutorLimits>;
  /** stdio only: where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** stdio only: where responses go. Default `process.stdout`. */
  stdout?: Writable;
}

/** A running reference server. */
export interface ReferenceServer {
  /** The MCP endpoint over HTTP (`http://127.0.0.1:8765/mcp`); `undefined` over stdio. */
  readonly url: string | undefined;
  /** The adapter whose commands scripts dispatch to. */
  readonly adapter: DccAdapter;
  /** The executor behind `dcc_search` and `dcc_execute`. */
  readonly executor: DccApiExecutor;
  /** Graceful shutdown: cancels work in flight, closes sessions and the sandbox pool. Idempotent. */
  close(): Promise<void>;
  /** Settles once the server has closed (by `close()`, or over stdio when stdin ends). */
  readonly closed: Promise<void>;
}

const serverInfo = { name: "dcc-reference-server", version: "0.1.0" };

/**
 * Builds and starts the reference MCP server: the adapter's commands on a `ToolRegistry`, a
 * `DccApiExecutor` over them and the adapter's catalog, exposed as `dcc_search` and
 * `dcc_execute` over Streamable HTTP or stdio. The CLI and the tests share it.
 */
export async function createReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  const adapter =
    options.adapter ??
    createMayaAdapter(options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  await adapter.start?.({ signal: new AbortController().signal, reportHost: () => {} });
  const executor = createAdapterExecutor(adapter, {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.scriptsDir === undefined ? {} : { scripts: options.scriptsDir }),
  });
  const tools = { search: "dcc_search", execute: "dcc_execute" };
  const executeDescription = adapter.executeDescription?.(tools);
  const instructions = adapter.instructions?.(tools);
  const common = {
    ...serverInfo,
    ...(instructions === undefined ? {} : { instructions }),
  };
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let stopTransport: () => Promise<void>;
  let url: string | undefined;
  try {
    if (options.transport === "stdio") {
      const jobs = new JobManager();
      const handle = await runStdioServer({
        ...common,
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
        ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
        setup: (server) => {
          registerDccApiExecutor(server, executor, {
            jobs,
            ...(executeDescription === undefined ? {} : { executeDescription }),
          });
        },
      });
      stopTransport = async () => {
        await handle.close();
        await jobs.close();
      };
      void handle.closed.then(() => close());
    } else {
      const http: McpHttpServer = createMcpHttpServer({
        ...common,
        port: options.port ?? 8765,
        host: options.host ?? "127.0.0.1",
        ...(options.token === undefined ? {} : { auth: { token: options.token } }),
        setup: (server) => {
          registerDccApiExecutor(server, executor, {
            jobs: http.jobs,
            ...(executeDescription === undefined ? {} : { executeDescription }),
          });
        },
      });
      const handle = await http.start();
      url = handle.url;
      stopTransport = () => handle.close();
    }
  } catch (error) {
    await executor.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await stopTransport();
      } finally {
        await executor.close();
        await adapter.close?.();
        markClosed();
      }
    })();
    return closing;
  };
  return { url, adapter, executor, close, closed };
}
