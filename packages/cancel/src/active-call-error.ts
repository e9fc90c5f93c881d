import { DccMcpError } from "./dcc-mcp-error.ts";

/** Options for {@link ActiveCallError}. */
export interface ActiveCallErrorOptions {
  /** Which problem it is. */
  code: "DUPLICATE_ACTIVE_CALL" | "ACTIVE_CALL_CANCEL_FAILED";
  /** What went wrong. */
  message: string;
  /** The call id concerned. */
  callId: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * A problem with an active call registered on a {@link CancellationManager}: a duplicate id
 * (code `"DUPLICATE_ACTIVE_CALL"`) or a cancel function that failed (code
 * `"ACTIVE_CALL_CANCEL_FAILED"`, with the failure as `cause`).
 */
export class ActiveCallError extends DccMcpError {
  override readonly name: string = "ActiveCallError";
  /** The call id concerned. */
  readonly callId: string;

  constructor(options: ActiveCallErrorOptions) {
    super({ message: options.message, code: options.code, cause: options.cause });
    this.callId = options.callId;
  }
}
