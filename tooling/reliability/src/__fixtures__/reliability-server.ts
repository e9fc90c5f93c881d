// The real stack for the reliability suites: the reference server (simulated Maya adapter plus the
// fault commands) over Streamable HTTP on loopback, and the official MCP clients of both protocol
// revisions connected to it.

import type { ExecutorLimits } from "@dcc/executor";
import { createMayaAdapter, type MayaAdapter } from "@dcc/maya";
import { connectClient, type Revision, type TestClient } from "@dcc/mcp-test-clients";
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from "@dcc/reference-server";
import { type FaultState, faultCommands, newFaultState, releaseHangs } from "./fault-commands.ts";

/**
 * The bound of a wait for something that takes milliseconds on an idle machine: generous, because
 * these suites run on a loaded 2-core box beside the other packages' suites.
 */
export const generousMs = 30_000;

/** A tool result as the client sees it. */
export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A running server with its clients. */
export interface ReliabilityServer {
  url: string;
  server: ReferenceServer;
  maya: MayaAdapter;
  faults: FaultState;
  /**
   * A new connected client of `revision` (default 2025-11-25, a stateful session); closed by
   * {@link ReliabilityServer.close}.
   */
  connect(revision?: Revision): Promise<TestClient>;
  /** Resolves true once no call is running on the server (false after `ms`). */
  idle(ms?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts the reference server with the fault commands on a free loopback port. */
export async function startReliabilityServer(
  options: {
    limits?: Partial<ExecutorLimits>;
    /** More settings of the reference server (tokens, an audit log, session bounds). */
    server?: Omit<ReferenceServerOptions, "port" | "adapters" | "limits">;
  } = {},
): Promise<ReliabilityServer> {
  const maya = createMayaAdapter();
  const faults = newFaultState();
  const server = await createReferenceServer({
    port: 0,
    adapters: [
      {
        dccName: maya.dccName,
        commands: () => [...maya.commands(), ...faultCommands(faults)],
        catalog: () => maya.catalog(),
      },
    ],
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...options.server,
  });
  const clients: TestClient[] = [];
  return {
    url: server.url as string,
    server,
    maya,
    faults,
    async connect(revision = "2025-11-25") {
      const { client } = await connectClient(revision, { kind: "http", url: server.url as string });
      clients.push(client);
      return client;
    },
    // No script running or waiting for a sandbox on any adapter.
    idle: (ms = generousMs) =>
      waitUntil(
        () =>
          server.adapters.every(({ executor }) => {
            const stats = executor?.pool.stats;
            return stats === undefined || (stats.busy === 0 && stats.queued === 0);
          }),
        ms,
      ),
    async close() {
      releaseHangs(faults);
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await server.close();
    },
  };
}

/**
 * Calls a tool with a request timeout as the bound. Nothing here is timed: how long a call takes
 * on a shared machine says nothing about the server, so tests assert what it answered.
 */
export async function callTool(
  client: TestClient,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = generousMs,
): Promise<{ result: ToolResult }> {
  const result: ToolResult = await client.callTool(
    { name, arguments: args },
    { timeout: timeoutMs },
  );
  return { result };
}

/** The text the client received, whole (content text plus structured content). */
export function resultText(result: ToolResult): string {
  return `${(result.content ?? []).map((item) => item.text ?? "").join("\n")}\n${JSON.stringify(result.structuredContent ?? null)}`;
}

/** Runs `return 1 + 1` and `dcc_search`; throws unless both answer correctly. */
export async function assertServing(client: TestClient): Promise<void> {
  const search = await callTool(client, "dcc_search", { query: "create a sphere", limit: 3 });
  const found = search.result.structuredContent;
  if (
    found?.["success"] !== true ||
    !Array.isArray(found["results"]) ||
    found["results"].length === 0
  ) {
    throw new Error(`dcc_search did not answer: ${resultText(search.result)}`);
  }
  const run = await callTool(client, "dcc_execute", { code: "return 1 + 1", timeout_secs: 30 });
  if (run.result.structuredContent?.["output"] !== 2) {
    throw new Error(`a trivial dcc_execute did not answer: ${resultText(run.result)}`);
  }
}

/** Polls `predicate` every 2 ms until it is true or `ms` passes. */
export async function waitUntil(predicate: () => boolean, ms = generousMs): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}
