/** How far a stage got, reported at checkpoints and carried by {@link StageCancelledError}. */
export interface StageProgress {
  /** Items finished so far. */
  readonly completed: number;
  /** Items in total, when known. */
  readonly total?: number | undefined;
  /** The item being worked on or just finished, e.g. a component or finding id. */
  readonly item?: string | undefined;
}
