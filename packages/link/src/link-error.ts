import { DccMcpError } from "@dcc/cancel";
import type { CallCompletion } from "./call-completion.ts";
import type { LinkErrorCode } from "./link-error-code.ts";

/** Options for {@link LinkError}. */
export interface LinkErrorOptions {
  /** Which failure it is. */
  code: LinkErrorCode;
  /** Human-readable message. */
  message: string;
  /** What the call did on the host. */
  completion: CallCompletion;
  /** The method called, when the failure belongs to a call. */
  method?: string | undefined;
  /** The call's id on the link, once it had one. */
  callId?: number | undefined;
  /** True when the host process was ended to stop the call. */
  hostTerminated?: boolean | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * A call over the link (or the link itself) failed. Every instance says what the call did on the
 * host in `completion`, so a caller always knows whether the work happened.
 */
export class LinkError extends DccMcpError {
  override readonly name: string = "LinkError";
  /** Which failure it is. */
  declare readonly code: LinkErrorCode;
  /** What the call did on the host. */
  readonly completion: CallCompletion;
  /** The method called, when the failure belongs to a call. */
  readonly method: string | undefined;
  /** The call's id on the link, once it had one. */
  readonly callId: number | undefined;
  /** True when the host process was ended to stop the call. */
  readonly hostTerminated: boolean;

  constructor(options: LinkErrorOptions) {
    super({ message: options.message, code: options.code, cause: options.cause });
    this.completion = options.completion;
    this.method = options.method;
    this.callId = options.callId;
    this.hostTerminated = options.hostTerminated ?? false;
  }
}
