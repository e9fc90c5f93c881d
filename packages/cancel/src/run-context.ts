import type { CancellationManager, CheckpointOptions } from "./cancellation-manager.ts";
import type { StageProgress } from "./stage-progress.ts";

/** Receives stage lifecycle events from {@link Stage.run}; every method is optional. */
export interface RunEventSink {
  /** A stage is about to run. */
  stageStarted?(event: { stage: string }): void;
  /** A stage finished its work. */
  stageCompleted?(event: { stage: string }): void;
  /** A stage stopped at a checkpoint because the run was cancelled. */
  stageCancelled?(event: { stage: string; progress: StageProgress | undefined }): void;
  /** A stage failed with an error unrelated to cancellation. */
  stageFailed?(event: { stage: string; error: unknown }): void;
}

/** What a {@link Stage} gets while it runs. */
export interface RunContext {
  /** The run's cancellation hub; runners register active calls on it. */
  readonly cancellation: CancellationManager;
  /** Where stage events go. */
  readonly events: RunEventSink;
  /** Shorthand for `cancellation.checkpoint(options)`. */
  checkpoint(options: CheckpointOptions): void;
}

/** Options for {@link createRunContext}. */
export interface RunContextOptions {
  /** The run's cancellation hub. */
  cancellation: CancellationManager;
  /** Where stage events go. Default: nowhere. */
  events?: RunEventSink | undefined;
}

/** Builds the {@link RunContext} that stages receive. */
export function createRunContext(options: RunContextOptions): RunContext {
  const { cancellation } = options;
  return {
    cancellation,
    events: options.events ?? {},
    checkpoint: (checkpoint) => cancellation.checkpoint(checkpoint),
  };
}
