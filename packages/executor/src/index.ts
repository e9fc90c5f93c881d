/**
 * `@dcc/executor`: layer 2 of the toolkit. Host commands (`ToolRegistry`, `ToolDispatcher`), a
 * QuickJS sandbox on a pool of worker threads where scripts call those commands with a
 * synchronous `dispatch(name, args)`, and `DccApiExecutor`, the search + execute pair the MCP
 * bridge exposes. It also holds `DccAdapter`, the contract every DCC adapter package implements,
 * and `createAdapterExecutor`, which turns an adapter into an executor. It depends on
 * `@dcc/cancel` and `@dcc/catalog`.
 */
export type {
  ApprovalAnswer,
  ApprovalCall,
  ApprovalDenialReason,
  ApprovalQuestion,
  ApprovalRule,
  Approver,
  CommandApprovalRuleOptions,
  ExecuteApproval,
} from "./approval.ts";
export { approvalRuleNames, commandApprovalRule } from "./approval.ts";
export type { ApprovalFlags } from "./approval-flags.ts";
export {
  maxPreapproved,
  maxRuleNameLength,
  parseApprovalFlags,
  preapprovedProblem,
  ruleNamePattern,
  sharedRuleNames,
} from "./approval-flags.ts";
export type { CatalogOnlyAdapterOptions } from "./catalog-only-adapter.ts";
export { createCatalogOnlyAdapter } from "./catalog-only-adapter.ts";
export type { CommandContext, CommandDefinition } from "./command-definition.ts";
export type { CommandErrorOptions } from "./command-error.ts";
export { CommandError } from "./command-error.ts";
export { commandErrorCodes } from "./command-error-code.ts";
export type {
  AdapterApprovalOptions,
  AdapterExecutorOptions,
} from "./create-adapter-executor.ts";
export { createAdapterExecutor } from "./create-adapter-executor.ts";
export type {
  DccAdapter,
  DccAdapterContext,
  DccHostStatus,
  DccToolNames,
} from "./dcc-adapter.ts";
export type {
  ApprovalSettings,
  DccApiExecutorOptions,
  ExecuteCodeOptions,
  SearchOptions,
  SearchResult,
} from "./dcc-api-executor.ts";
export { DccApiExecutor } from "./dcc-api-executor.ts";
export type {
  DccChangeReport,
  DccRollbackRefusal,
  DccTransaction,
  DccTransactionOptions,
  DccTransactionReport,
} from "./dcc-transaction.ts";
export type {
  DispatchLane,
  DispatchLaneConnection,
  DispatchLaneReply,
  DispatchLaneWait,
  OpenDispatchLane,
} from "./dispatch-lane.ts";
export { executeMessage } from "./execute-message.ts";
export type { ExecuteLogEntry, ExecuteOptions, ExecuteProgress } from "./execute-options.ts";
export type {
  ExecuteChanges,
  ExecuteCompletion,
  ExecuteErrorCode,
  ExecuteFailure,
  ExecuteImage,
  ExecuteImageDropped,
  ExecuteLimitName,
  ExecuteResult,
  ExecuteStats,
  ExecuteSuccess,
  ExecuteTransactionReport,
  ExecuteTruncation,
  JsonValue,
} from "./execute-result.ts";
export { executeErrorCodes } from "./execute-result.ts";
export type { ExecutorLimits } from "./executor-limits.ts";
export { defaultExecutorLimits, maxStackBytes, resolveExecutorLimits } from "./executor-limits.ts";
export type { HostImageMimeType, HostImageOptions, ImageReference } from "./host-image.ts";
export { HostImage } from "./host-image.ts";
export type { SandboxPoolOptions, SandboxPoolStats } from "./sandbox-pool.ts";
export { SandboxPool } from "./sandbox-pool.ts";
export type {
  ParametersSchema,
  ScriptAnalysis,
  ScriptParameter,
} from "./scripts/analyze-script.ts";
export {
  analyzeScript,
  deriveParametersSchema,
  isEntryPointScript,
} from "./scripts/analyze-script.ts";
export type {
  ExecuteParamsRequest,
  MaterializedScriptContext,
  PreparedScriptCall,
} from "./scripts/execute-params.ts";
export { prepareScriptCall } from "./scripts/execute-params.ts";
export type {
  InvalidParametersErrorOptions,
  ParameterIssue,
} from "./scripts/invalid-parameters-error.ts";
export { InvalidParametersError } from "./scripts/invalid-parameters-error.ts";
export type { MaterializeScriptOptions } from "./scripts/materialize-script.ts";
export { materializeScript } from "./scripts/materialize-script.ts";
export type { MaterializedScript, ScriptFileRef } from "./scripts/materialized-script.ts";
export type { NoMainFunctionErrorOptions } from "./scripts/no-main-function-error.ts";
export { NoMainFunctionError } from "./scripts/no-main-function-error.ts";
export { ScriptErrorCode } from "./scripts/script-error-code.ts";
export type { MaterializeOnExecuteOptions } from "./scripts/script-execution.ts";
export type { ScriptExpiredErrorOptions } from "./scripts/script-expired-error.ts";
export { ScriptExpiredError } from "./scripts/script-expired-error.ts";
export type { ScriptHashMismatchErrorOptions } from "./scripts/script-hash-mismatch-error.ts";
export { ScriptHashMismatchError } from "./scripts/script-hash-mismatch-error.ts";
export type { ScriptMetadataErrorOptions } from "./scripts/script-metadata-error.ts";
export { ScriptMetadataError } from "./scripts/script-metadata-error.ts";
export type { ScriptNotFoundErrorOptions } from "./scripts/script-not-found-error.ts";
export { ScriptNotFoundError } from "./scripts/script-not-found-error.ts";
export type { ScriptOptionsErrorOptions } from "./scripts/script-options-error.ts";
export { ScriptOptionsError } from "./scripts/script-options-error.ts";
export type { ScriptPathOutsideRootErrorOptions } from "./scripts/script-path-outside-root-error.ts";
export { ScriptPathOutsideRootError } from "./scripts/script-path-outside-root-error.ts";
export type { ScriptSchemaConflictErrorOptions } from "./scripts/script-schema-conflict-error.ts";
export { ScriptSchemaConflictError } from "./scripts/script-schema-conflict-error.ts";
export type {
  CleanupResult,
  MaterializeOptions,
  ResolvedScript,
  ResolveOptions,
  ScriptStoreOptions,
} from "./scripts/script-store.ts";
export { ScriptStore } from "./scripts/script-store.ts";
export type { ScriptSyntaxErrorOptions } from "./scripts/script-syntax-error.ts";
export { ScriptSyntaxError } from "./scripts/script-syntax-error.ts";
export type { UnsupportedParameterTypeErrorOptions } from "./scripts/unsupported-parameter-type-error.ts";
export { UnsupportedParameterTypeError } from "./scripts/unsupported-parameter-type-error.ts";
export type { DispatchOptions } from "./tool-dispatcher.ts";
export { ToolDispatcher } from "./tool-dispatcher.ts";
export { ToolRegistry } from "./tool-registry.ts";
