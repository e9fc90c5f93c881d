import { CancellationManager } from "./cancellation-manager.ts";
import { createRunContext, type RunEventSink } from "./run-context.ts";
import type { Stage, StageOutput } from "./stage.ts";

/** Overall outcome of a run. The caller should record `cancelled` as such, not as a failure. */
export type RunStatus = "completed" | "cancelled" | "failed";

/** What {@link StageOrchestrator.run} returns. */
export interface RunResult {
  /** How the run ended. */
  status: RunStatus;
  /** One entry per stage that ran, in order; the last one is where it stopped. */
  stages: Array<StageOutput<unknown>>;
  /** The last stage's output when the run completed. */
  output?: unknown;
  /** The stage's error when the run failed, or stop failures of active calls when cancelled. */
  error?: unknown;
}

/** Options for {@link StageOrchestrator}. */
export interface StageOrchestratorOptions {
  /** The stages, run in order; each receives the previous stage's output. */
  stages: ReadonlyArray<Stage<never, unknown>>;
  /** The run's cancellation hub. Default: one that is never cancelled. */
  cancellation?: CancellationManager | undefined;
  /** Where stage events go. */
  events?: RunEventSink | undefined;
}

/**
 * Runs stages in sequence and stops at the first one that did not complete. A cancelled run
 * waits for the forceful stops its checkpoints began (so no subprocess outlives it) and returns
 * status `cancelled`.
 */
export class StageOrchestrator {
  readonly #stages: ReadonlyArray<Stage<never, unknown>>;
  readonly #cancellation: CancellationManager;
  readonly #events: RunEventSink | undefined;

  constructor(options: StageOrchestratorOptions) {
    this.#stages = options.stages;
    this.#cancellation = options.cancellation ?? new CancellationManager();
    this.#events = options.events;
  }

  /** Runs every stage, starting with `input`. Never throws; the outcome is in the result. */
  async run(input?: unknown): Promise<RunResult> {
    const context = createRunContext({ cancellation: this.#cancellation, events: this.#events });
    const stages: Array<StageOutput<unknown>> = [];
    let value: unknown = input;
    for (const stage of this.#stages) {
      const outcome = await (stage as Stage<unknown, unknown>).run(context, value);
      stages.push(outcome);
      if (outcome.status === "failed") return { status: "failed", stages, error: outcome.error };
      if (outcome.status === "cancelled") {
        try {
          await this.#cancellation.settled();
        } catch (error) {
          return { status: "cancelled", stages, error };
        }
        return { status: "cancelled", stages };
      }
      value = outcome.output;
    }
    return { status: "completed", stages, output: value };
  }
}
