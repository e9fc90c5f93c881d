/**
 * `@dcc/mcp-bridge`: the MCP layer of the toolkit, above the adapters. Puts `@dcc/executor`'s
 * executors on the official MCP SDK as two tools (`dcc_search`, `dcc_execute`), serves them over
 * Streamable HTTP or stdio, and carries cancellation, progress and async jobs from the protocol
 * down to host commands. `createDccServer` composes a whole server from one or several
 * `DccAdapter`s.
 */
export type {
  BridgeEnvelope,
  BridgeExecuteOptions,
  BridgeExecuteParamsRequest,
  BridgeExecutor,
  BridgeExecutorLimits,
  BridgeResult,
  BridgeSearchLimits,
} from "./bridge-executor.ts";
export type {
  DccRequestHandler,
  DccRequestHandlerOptions,
} from "./create-dcc-request-handler.ts";
export { createDccRequestHandler } from "./create-dcc-request-handler.ts";
export type { CreateDccServerOptions, DccServer } from "./create-dcc-server.ts";
export { createDccServer } from "./create-dcc-server.ts";
export type {
  DccAdapterRegistration,
  DccCompositionOptions,
} from "./dcc-composition-options.ts";
export type { DccAdapterStatus, DccServerAdapter } from "./dcc-server-adapter.ts";
export type {
  DccServerOptions,
  DccServerSetupContext,
  ExecutorRegistration,
} from "./dcc-server-options.ts";
export type {
  DccToolCallEvent,
  DccToolCallObserver,
  DccToolCallScript,
} from "./dcc-tool-call-event.ts";
export type { InMemoryJobStoreOptions } from "./in-memory-job-store.ts";
export { InMemoryJobStore } from "./in-memory-job-store.ts";
export type { JobManagerOptions, JobRunOptions, JobWorkContext } from "./job-manager.ts";
export { JobManager } from "./job-manager.ts";
export type { JobQueue, JobQueueCancelOptions, JobQueueSubmission } from "./job-queue.ts";
export type { JobRecord, JobStore } from "./job-store.ts";
export type { LabelledToken } from "./labelled-token.ts";
export type { McpBridgeErrorOptions } from "./mcp-bridge-error.ts";
export { McpBridgeError, McpBridgeErrorCode } from "./mcp-bridge-error.ts";
export type { McpHttpHandler, McpHttpHandlerOptions } from "./mcp-http-handler.ts";
export { createMcpHttpHandler } from "./mcp-http-handler.ts";
export type { McpHttpServerHandle, McpHttpServerOptions } from "./mcp-http-server.ts";
export { createMcpHttpServer, McpHttpServer } from "./mcp-http-server.ts";
export type {
  RegisterDccApiExecutorOptions,
  RegisteredDccApiTools,
} from "./register-dcc-api-executor.ts";
export { registerDccApiExecutor } from "./register-dcc-api-executor.ts";
export type { StdioServerHandle, StdioServerOptions } from "./stdio-server.ts";
export { runStdioServer } from "./stdio-server.ts";
