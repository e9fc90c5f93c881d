// Starts a real McpHttpServer on a free loopback port and connects real SDK clients to it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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
  /** A connected client; closed by {@link HttpHarness.close}. */
  connect(headers?: Record<string, string>): Promise<Client>;
  close(): Promise<void>;
}

/** Starts a server with one test executor (or the given options) on port 0. */
export async function startHttpHarness(
  options: Partial<McpHttpServerOptions> = {},
  executorOptions: { scriptsRoot?: string } = {},
): Promise<HttpHarness> {
  const test = createTestExecutor("maya", executorOptions);
  const server = createMcpHttpServer({ port: 0, executors: [test.executor], ...options });
  const { url } = await server.start();
  const clients: Client[] = [];
  return {
    server,
    url,
    test,
    async connect(headers = {}) {
      const client = new Client({ name: "test-client", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
      );
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
