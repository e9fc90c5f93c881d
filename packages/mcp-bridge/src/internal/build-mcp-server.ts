// Builds one SDK McpServer with every configured executor registered. The HTTP server calls it per
// 2025-11-25 session and per 2026-07-28 request, the stdio server once per connection.
import { McpServer } from "@modelcontextprotocol/server";
import type { BridgeExecutor } from "../bridge-executor.ts";
import type { DccServerOptions, ExecutorRegistration } from "../dcc-server-options.ts";
import type { JobManager } from "../job-manager.ts";
import { McpBridgeError } from "../mcp-bridge-error.ts";
import { registerDccApiExecutor } from "../register-dcc-api-executor.ts";

/** How long a 2026-07-28 client may cache `tools/list` and `server/discover`, in ms. */
const toolListTtlMs = 5 * 60_000;

/** A registration with its tool names settled. */
export type ResolvedRegistration = ExecutorRegistration & {
  searchToolName: string;
  executeToolName: string;
};

/** Resolves tool names for every executor and checks they are distinct. */
export function resolveRegistrations(options: DccServerOptions): ResolvedRegistration[] {
  const entries = (options.executors ?? []).map(
    (entry): ExecutorRegistration =>
      "executor" in entry ? entry : { executor: entry as BridgeExecutor },
  );
  if (entries.length === 0 && options.setup === undefined) {
    throw new McpBridgeError({ code: "INVALID_CONFIG", message: "Pass executors, setup, or both" });
  }
  const several = entries.length > 1;
  const seen = new Set<string>();
  return entries.map((entry) => {
    const prefix = several ? entry.executor.dccName : "dcc";
    const resolved: ResolvedRegistration = {
      ...entry,
      searchToolName: entry.searchToolName ?? `${prefix}_search`,
      executeToolName: entry.executeToolName ?? `${prefix}_execute`,
    };
    for (const name of [resolved.searchToolName, resolved.executeToolName]) {
      if (seen.has(name)) {
        throw new McpBridgeError({
          code: "INVALID_CONFIG",
          message: `Tool name ${name} is used twice; give each executor its own searchToolName and executeToolName`,
        });
      }
      seen.add(name);
    }
    return resolved;
  });
}

/** A new McpServer with the executors registered and `setup` applied. */
export function buildMcpServer(
  options: DccServerOptions,
  registrations: ResolvedRegistration[],
  jobs: JobManager,
): McpServer {
  const server = new McpServer(
    { name: options.name ?? "dcc-mcp", version: options.version ?? "0.1.0" },
    {
      // The tool list never changes while the server runs, so no list_changed is ever sent.
      capabilities: { tools: { listChanged: false }, logging: {} },
      // The tool list is fixed for the server's life, so a 2026-07-28 client may cache it. It
      // stays private: behind a bearer token the list is one principal's.
      cacheHints: {
        "tools/list": { ttlMs: toolListTtlMs, cacheScope: "private" },
        "server/discover": { ttlMs: toolListTtlMs, cacheScope: "private" },
      },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  for (const registration of registrations) {
    const { executor, searchToolName, executeToolName, searchDescription, executeDescription } =
      registration;
    registerDccApiExecutor(server, executor, {
      searchToolName,
      executeToolName,
      jobs,
      ...(searchDescription === undefined ? {} : { searchDescription }),
      ...(executeDescription === undefined ? {} : { executeDescription }),
      ...(options.maxResultChars === undefined ? {} : { maxResultChars: options.maxResultChars }),
      ...(options.progressIntervalMs === undefined
        ? {}
        : { progressIntervalMs: options.progressIntervalMs }),
      ...(options.onToolCall === undefined ? {} : { onToolCall: options.onToolCall }),
    });
  }
  options.setup?.(server, { jobs });
  return server;
}
