import type { McpServer } from "@modelcontextprotocol/server";
import type { BridgeExecutor } from "./bridge-executor.ts";
import type { DccToolCallObserver } from "./dcc-tool-call-event.ts";
import type { JobManager } from "./job-manager.ts";
import type { JobQueue } from "./job-queue.ts";
import type { JobStore } from "./job-store.ts";

/** One executor with explicit tool names, for servers that host several DCCs. */
export interface ExecutorRegistration {
  /** The executor. */
  executor: BridgeExecutor;
  /** Search tool name. Default `dcc_search`, or `<dccName>_search` when several executors share a server. */
  searchToolName?: string;
  /** Execute tool name. Default `dcc_execute`, or `<dccName>_execute` when several executors share a server. */
  executeToolName?: string;
  /** Replaces the default search tool description. */
  searchDescription?: string;
  /** Replaces the default execute tool description (e.g. with the DCC's argument conventions). */
  executeDescription?: string;
}

/** What {@link DccServerOptions.setup} receives besides the server. */
export interface DccServerSetupContext {
  /** The server's job manager; pass it to `registerDccApiExecutor` so jobs are shared and shut down with the server. */
  jobs: JobManager;
}

/** What the HTTP and stdio servers build each MCP server from. */
export interface DccServerOptions {
  /** Server name reported in `initialize`. Default `dcc-mcp`. */
  name?: string;
  /** Server version reported in `initialize`. Default `0.1.0`. */
  version?: string;
  /** Instructions sent to the client in `initialize`. */
  instructions?: string;
  /** Executors to expose; see {@link ExecutorRegistration} for naming. */
  executors?: ReadonlyArray<BridgeExecutor | ExecutorRegistration>;
  /**
   * Called for every new MCP server (one per HTTP session) after the executors are registered,
   * to add more tools. It receives the SDK's `McpServer`; this is the one place SDK types show.
   */
  setup?: (server: McpServer, context: DccServerSetupContext) => void;
  /** Where async job records live. Default: in memory, bounded. */
  jobStore?: JobStore;
  /**
   * Runs async jobs on this queue (e.g. `@dcc/farm`'s, with DCC workers on other hosts) instead
   * of in this process. The caller owns it and closes it after the server. Default: none.
   */
  jobQueue?: JobQueue;
  /**
   * Synchronous `dcc_execute` calls run on `jobQueue` too, for a server whose adapters run no
   * host (a farm's front end, see `createCatalogOnlyAdapter`): each is queued as a job and
   * awaited, with its progress forwarded. The wait is bounded by the script's timeout plus a
   * margin for a worker to take the job; past it, or when the client cancels, the job is
   * cancelled. Only with a `jobQueue`. Default false: they run on this server's adapter.
   */
  syncCallsOnQueue?: boolean;
  /** Most async jobs running at once. Default 16. */
  maxRunningJobs?: number;
  /** Most synchronous script calls running at once, over all sessions. Default 64. */
  maxRunningCalls?: number;
  /** Largest result JSON in characters before structured truncation. Default 24 000. */
  maxResultChars?: number;
  /** Least time between two progress notifications of one call, in ms. Default 50. */
  progressIntervalMs?: number;
  /** Told about every finished search and execute call, on every session (metrics, audit). */
  onToolCall?: DccToolCallObserver;
}
