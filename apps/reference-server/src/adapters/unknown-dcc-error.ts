/** Options for {@link UnknownDccError}. */
export interface UnknownDccErrorOptions {
  /** What was wrong with the list. */
  message: string;
}

/** A `--dcc` list that names an unknown DCC, one twice, or none at all. */
export class UnknownDccError extends Error {
  override readonly name: string = "UnknownDccError";
  /** Stable code. */
  readonly code: "UNKNOWN_DCC" = "UNKNOWN_DCC";

  constructor(options: UnknownDccErrorOptions) {
    super(options.message);
  }
}
