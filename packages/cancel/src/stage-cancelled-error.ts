import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import type { StageProgress } from "./stage-progress.ts";

/** Options for {@link StageCancelledError}. */
export interface StageCancelledErrorOptions {
  /** The stage whose checkpoint saw the cancellation. */
  stage: string;
  /** How far the stage got. */
  progress?: StageProgress | undefined;
}

/**
 * Thrown by {@link CancellationManager.checkpoint} once the run is cancelled, after the active
 * calls were told to stop. It is a {@link DccMcpCancelledError} (code `"CANCELLED"`, source
 * `"stage"`) carrying the stage and its progress.
 */
export class StageCancelledError extends DccMcpCancelledError {
  override readonly name: string = "StageCancelledError";
  /** The stage whose checkpoint saw the cancellation. */
  readonly stage: string;
  /** How far the stage got, when it said. */
  readonly progress: StageProgress | undefined;

  constructor(options: StageCancelledErrorOptions) {
    super({ source: "stage", message: `Stage ${options.stage} cancelled` });
    this.stage = options.stage;
    this.progress = options.progress;
  }
}
