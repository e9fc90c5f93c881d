import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import type { RunContext } from "./run-context.ts";
import { StageCancelledError } from "./stage-cancelled-error.ts";
import type { StageProgress } from "./stage-progress.ts";

/** Outcome of one stage. A cancelled stage is not a failed one. */
export type StageStatus = "completed" | "cancelled" | "failed";

/** What {@link Stage.run} returns. */
export interface StageOutput<O> {
  /** The stage's name. */
  stage: string;
  /** How it ended. */
  status: StageStatus;
  /** The value `execute` returned, when it completed. */
  output?: O | undefined;
  /** How far it got, when cancelled at a checkpoint that said. */
  progress?: StageProgress | undefined;
  /** The error, when it failed. */
  error?: unknown;
}

/**
 * Base of a cooperative stage. {@link Stage.run} checkpoints before and after
 * {@link Stage.execute}; a stage that loops over items also calls `context.checkpoint` between
 * items (never inside an external call). A cancellation at any checkpoint, any other
 * {@link DccMcpCancelledError} (such as one from `checkCancelled()`), or any error thrown while
 * the run is cancelled (such as an external call that was stopped forcefully) ends the stage as
 * `cancelled` and emits `stageCancelled`.
 */
export abstract class Stage<I = unknown, O = unknown> {
  /** Name used in checkpoints, events and results. */
  abstract readonly name: string;

  /** The stage's work. */
  protected abstract execute(context: RunContext, input: I): O | Promise<O>;

  /** Progress to report at the checkpoint after `execute`; none by default. */
  protected progressAfter(_output: O): StageProgress | undefined {
    return undefined;
  }

  /** Runs the stage between two checkpoints and reports how it ended; never throws. */
  async run(context: RunContext, input: I): Promise<StageOutput<O>> {
    const stage = this.name;
    context.events.stageStarted?.({ stage });
    try {
      context.checkpoint({ stage });
      const output = await this.execute(context, input);
      context.checkpoint({ stage, progress: this.progressAfter(output) });
      context.events.stageCompleted?.({ stage });
      return { stage, status: "completed", output };
    } catch (error) {
      if (DccMcpCancelledError.is(error) || context.cancellation.isCancelled()) {
        const progress = error instanceof StageCancelledError ? error.progress : undefined;
        context.events.stageCancelled?.({ stage, progress });
        return { stage, status: "cancelled", progress };
      }
      context.events.stageFailed?.({ stage, error });
      return { stage, status: "failed", error };
    }
  }
}
