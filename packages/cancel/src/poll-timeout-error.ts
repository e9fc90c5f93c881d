import { DccMcpError } from "./dcc-mcp-error.ts";

/** Options for {@link PollTimeoutError}. */
export interface PollTimeoutErrorOptions {
  /** The bound that was exceeded, in milliseconds. */
  timeoutMs: number;
}

/**
 * A {@link PollingCancellationToken} source did not answer within its timeout.
 * Code `"POLL_TIMEOUT"`.
 */
export class PollTimeoutError extends DccMcpError {
  override readonly name: string = "PollTimeoutError";
  /** The bound that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(options: PollTimeoutErrorOptions) {
    super({
      message: `Cancellation source did not answer within ${options.timeoutMs} ms`,
      code: "POLL_TIMEOUT",
    });
    this.timeoutMs = options.timeoutMs;
  }
}
