/**
 * `@dcc/cancel`: the bottom layer of the toolkit. Cooperative cancellation (tokens, per-job
 * handles, an ambient context), checkpoints and stages, and forceful cancellation of active calls.
 * It depends on no other `@dcc` package.
 */

export type { ActiveCallErrorOptions } from "./active-call-error.ts";
export { ActiveCallError } from "./active-call-error.ts";
export type {
  CancelListener,
  CancelTokenFromSignalOptions,
  CancelTokenOptions,
} from "./cancel-token.ts";
export { CancelToken } from "./cancel-token.ts";
export {
  checkCancelled,
  currentCancelToken,
  resetCancelToken,
  setCancelToken,
  withCancelToken,
} from "./cancel-token-context.ts";
export type {
  CancelActiveCall,
  CancellationManagerOptions,
  CheckpointOptions,
} from "./cancellation-manager.ts";
export { CancellationManager } from "./cancellation-manager.ts";
export type { CancellationProbe } from "./cancellation-probe.ts";
export type { CancellationToken } from "./cancellation-token.ts";
export { CancelledError } from "./cancelled-error.ts";
export type { CancelContextRunner } from "./capture-cancel-context.ts";
export { captureCancelContext } from "./capture-cancel-context.ts";
export { checkDccCancelled } from "./check-dcc-cancelled.ts";
export type { ContextReset, ContextResetErrorOptions, ContextVariable } from "./context-reset.ts";
export { ContextResetError } from "./context-reset.ts";
export {
  currentJob,
  resetCurrentJob,
  setCurrentJob,
  withCurrentJob,
} from "./current-job-context.ts";
export { currentJobId, withHostJobId } from "./current-job-id.ts";
export type {
  CancellationSource,
  DccMcpCancelledErrorOptions,
} from "./dcc-mcp-cancelled-error.ts";
export { cancelledMessages, DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
export type { DccMcpErrorOptions } from "./dcc-mcp-error.ts";
export { DccMcpError } from "./dcc-mcp-error.ts";
export type { JobOptions } from "./job.ts";
export { Job } from "./job.ts";
export type { JobHandle } from "./job-handle.ts";
export type { JobStateErrorOptions } from "./job-state-error.ts";
export { JobStateError } from "./job-state-error.ts";
export type { JobStatus } from "./job-status.ts";
export { isTerminalJobStatus, jobStatuses } from "./job-status.ts";
export { ManualCancellationToken } from "./manual-cancellation-token.ts";
export type { PollTimeoutErrorOptions } from "./poll-timeout-error.ts";
export { PollTimeoutError } from "./poll-timeout-error.ts";
export type {
  CancellationPoll,
  PollingCancellationTokenOptions,
} from "./polling-cancellation-token.ts";
export { PollingCancellationToken } from "./polling-cancellation-token.ts";
export type { ProcessTerminationErrorOptions } from "./process-termination-error.ts";
export { ProcessTerminationError } from "./process-termination-error.ts";
export type { RunContext, RunContextOptions, RunEventSink } from "./run-context.ts";
export { createRunContext } from "./run-context.ts";
export type { StageOutput, StageStatus } from "./stage.ts";
export { Stage } from "./stage.ts";
export type { StageCancelledErrorOptions } from "./stage-cancelled-error.ts";
export { StageCancelledError } from "./stage-cancelled-error.ts";
export type { RunResult, RunStatus, StageOrchestratorOptions } from "./stage-orchestrator.ts";
export { StageOrchestrator } from "./stage-orchestrator.ts";
export type { StageProgress } from "./stage-progress.ts";
export type { TerminateProcessOptions, TerminateProcessResult } from "./terminate-process.ts";
export { terminateProcess } from "./terminate-process.ts";
