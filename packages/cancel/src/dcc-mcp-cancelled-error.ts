import { DccMcpError } from "./dcc-mcp-error.ts";
import { brandedInstanceof, hasBrand, setBrand } from "./internal/brand.ts";

/** Messages of {@link DccMcpCancelledError}, worded as upstream. */
export const cancelledMessages: {
  readonly request: "Request cancelled by client";
  readonly job: "Job cancelled by dispatcher";
} = {
  request: "Request cancelled by client",
  job: "Job cancelled by dispatcher",
} as const;

/** Which layer reported the cancellation: the request token, the per-job handle, or a stage. */
export type CancellationSource = "request" | "job" | "stage";

/** Options for {@link DccMcpCancelledError}. */
export interface DccMcpCancelledErrorOptions {
  /** Which layer cancelled; picks the default message. Defaults to `"request"`. */
  source?: CancellationSource | undefined;
  /** Overrides the upstream message. */
  message?: string | undefined;
  /** Why the work was cancelled, when the canceller said so. */
  reason?: string | undefined;
  /** Server-owned job id of the cancelled work, when known. */
  jobId?: string | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
}

const marker: unique symbol = Symbol.for("@dcc/cancel/DccMcpCancelledError");

/**
 * Thrown by {@link checkCancelled} and {@link checkDccCancelled} when the work was cancelled.
 * Code `"CANCELLED"`. It extends {@link DccMcpError} (an ordinary `Error`), so a generic
 * `catch` turns an unhandled cancellation into a normal error result.
 */
export class DccMcpCancelledError extends DccMcpError {
  override readonly name: string = "DccMcpCancelledError";
  /** Which layer cancelled. */
  readonly source: CancellationSource;
  /** Why the work was cancelled, when the canceller said so. */
  readonly reason: string | undefined;
  /** Server-owned job id of the cancelled work, when known. */
  readonly jobId: string | undefined;

  constructor(options: DccMcpCancelledErrorOptions = {}) {
    const source = options.source ?? "request";
    super({
      message:
        options.message ?? (source === "job" ? cancelledMessages.job : cancelledMessages.request),
      code: "CANCELLED",
      cause: options.cause,
    });
    this.source = source;
    this.reason = options.reason;
    this.jobId = options.jobId;
    setBrand(this, marker);
  }

  static {
    brandedInstanceof(DccMcpCancelledError, marker);
  }

  /** True for any {@link DccMcpCancelledError}, including one from another package copy. */
  static override is(value: unknown): value is DccMcpCancelledError {
    return hasBrand(value, marker);
  }
}
