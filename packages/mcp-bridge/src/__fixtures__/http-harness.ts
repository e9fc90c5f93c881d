// Starts a real McpHttpServer on a free loopback port and connects real SDK clients to it: the
// v1 client for 2025-11-25 or the v2 client for 2026-07-28 (the harness's `revision`).

import { connectClient, type Revision, type TestClient } from "@dcc/mcp-test-clients";
import {
  createMcpHttpServer,
  type McpHttpServer,
  type McpHttpServerOptions,
} from "../mcp-http-server.ts";
import { createTestExecutor, type TestExecutor } from "./test-executor.ts";

/** A running server with helpers. */
export interface HttpHarness {
  server: McpHttpServer;
  url: string;
  test: TestExecutor;
  /** The revision `connect` speaks. */
  revision: Revision;
  /** A connected client; closed by {@link HttpHarness.close}. */
  connect(headers?: Record<string, string>): Promise<TestClient>;
  close(): Promise<void>;
}

/** Starts a server with one test executor (or the given options) on port 0. */
export async function startHttpHarness(
  options: Partial<McpHttpServerOptions> = {},
  executorOptions: { scriptsRoot?: string; revision?: Revision } = {},
): Promise<HttpHarness> {
  const revision = executorOptions.revision ?? "2025-11-25";
  const test = createTestExecutor("maya", executorOptions);
  const server = createMcpHttpServer({ port: 0, executors: [test.executor], ...options });
  const { url } = await server.start();
  const clients: TestClient[] = [];
  return {
    server,
    url,
    test,
    revision,
    async connect(headers = {}) {
      const { client } = await connectClient(revision, { kind: "http", url, headers });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await server.close();
      await test.close();
    },
  };
}

/** Polls `predicate` every 2 ms until true or `ms` (default 60 s, for a loaded machine) passes; returns its last value. */
export async function waitUntil(predicate: () => boolean, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}
