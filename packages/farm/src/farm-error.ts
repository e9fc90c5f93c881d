/** Stable codes of {@link FarmError}. */
export const FarmErrorCode = {
  /** Redis did not answer in time or refused the connection. */
  REDIS_UNAVAILABLE: "REDIS_UNAVAILABLE",
  /** Bad options: a missing pool, an unparsable Redis URL, a bad bound. */
  INVALID_CONFIG: "INVALID_CONFIG",
  /** A job submission the queue refuses, e.g. a malformed `preapproved`; nothing was queued. */
  INVALID_SUBMISSION: "INVALID_SUBMISSION",
} as const;

/** One of the {@link FarmErrorCode} values. */
export type FarmErrorCode = (typeof FarmErrorCode)[keyof typeof FarmErrorCode];

/** Options for {@link FarmError}. */
export interface FarmErrorOptions {
  /** What went wrong, as a stable code. */
  code: FarmErrorCode;
  /** Human-readable text. */
  message: string;
  /** The underlying error. */
  cause?: unknown;
}

/** An error of the farm's queue or worker, with a stable {@link FarmErrorCode}. */
export class FarmError extends Error {
  override readonly name = "FarmError";
  /** What went wrong. */
  readonly code: FarmErrorCode;

  /** Creates the error from its options. */
  constructor(options: FarmErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
