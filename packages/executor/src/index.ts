/**
 * `@dcc/executor`: layer 2 of the toolkit. Host commands (`ToolRegistry`, `ToolDispatcher`), a
 * QuickJS sandbox on a pool of worker threads where scripts call those commands with a
 * synchronous `dispatch(name, args)`, and `DccApiExecutor`, the search + execute pair the MCP
 * bridge exposes. It depends on `@dcc/cancel` and `@dcc/catalog`.
 */
export type { CommandContext, CommandDefinition } from "./command-definition.ts";
export type { CommandErrorOptions } from "./command-error.ts";
export { CommandError } from "./command-error.ts";
export { commandErrorCodes } from "./command-error-code.ts";
export type {
  DccApiExecutorOptions,
  RunScriptOptions,
  SearchableCatalog,
  SearchOptions,
  SearchRecord,
  SearchResult,
} from "./dcc-api-executor.ts";
export { DccApiExecutor } from "./dcc-api-executor.ts";
export type { ExecuteLogEntry, ExecuteOptions, ExecuteProgress } from "./execute-options.ts";
export type {
  ExecuteCompletion,
  ExecuteErrorCode,
  ExecuteFailure,
  ExecuteLimitName,
  ExecuteResult,
  ExecuteStats,
  ExecuteSuccess,
  JsonValue,
} from "./execute-result.ts";
export { executeErrorCodes } from "./execute-result.ts";
export type { ExecutorLimits } from "./executor-limits.ts";
export { defaultExecutorLimits, maxStackBytes, resolveExecutorLimits } from "./executor-limits.ts";
export type { SandboxJob, SandboxPoolOptions, SandboxRunResult } from "./sandbox-pool.ts";
export { SandboxPool } from "./sandbox-pool.ts";
export type { DispatchOptions } from "./tool-dispatcher.ts";
export { ToolDispatcher } from "./tool-dispatcher.ts";
export { ToolRegistry } from "./tool-registry.ts";
