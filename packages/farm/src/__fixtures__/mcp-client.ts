// A real MCP server composed from the simulated Maya with a farm queue, and an SDK client on it.
import { createMayaAdapter } from "@dcc/maya";
import { createDccServer, type DccServer, type DccToolCallObserver } from "@dcc/mcp-bridge";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFarmJobQueue, type FarmJobQueue } from "../farm-job-queue.ts";

/** A server on a farm queue, with one connected client. */
export interface FarmServer {
  server: DccServer;
  queue: FarmJobQueue;
  /** Calls `dcc_execute` (with `meta` as the request's `_meta`) and returns its structured content. */
  execute(
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  /** Calls `dcc_search`. */
  search(query: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts a server whose `maya` jobs go to `pool` on `redisUrl`; with `scriptsDir`, it stores
 * materialized scripts there and its queue sends them with file_path jobs.
 */
export async function startFarmServer(
  redisUrl: string,
  pool = "maya",
  scriptsDir?: string,
  more: { onToolCall?: DccToolCallObserver } = {},
): Promise<FarmServer> {
  const queue = createFarmJobQueue({
    redis: { url: redisUrl },
    pools: { maya: pool },
    commandTimeoutMs: 3000,
    ...(scriptsDir === undefined ? {} : { scripts: scriptsDir }),
  });
  const server = await createDccServer({
    adapters: [createMayaAdapter()],
    port: 0,
    jobQueue: queue,
    ...(scriptsDir === undefined ? {} : { scriptsDir }),
    ...more,
  });
  const client = new Client({ name: "farm-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url as string)));
  const call = async (
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) =>
    (
      (await client.callTool({
        name,
        arguments: args,
        ...(meta === undefined ? {} : { _meta: meta }),
      })) as {
        structuredContent?: Record<string, unknown>;
      }
    ).structuredContent ?? {};
  return {
    server,
    queue,
    execute: (args, meta) => call("dcc_execute", args, meta),
    search: (query) => call("dcc_search", { query }),
    async close() {
      await client.close().catch(() => {});
      await server.close();
      await queue.close();
    },
  };
}

/** Polls `read` every 50 ms until `done` holds or `ms` (default 120 s) passes; returns the last value. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
