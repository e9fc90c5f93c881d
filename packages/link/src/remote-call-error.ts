import type { CallCompletion } from "./call-completion.ts";
import { LinkError } from "./link-error.ts";

/** Options for {@link RemoteCallError}. */
export interface RemoteCallErrorOptions {
  /** The method called. */
  method: string;
  /** The call's id on the link. */
  callId: number;
  /** The host's own code, e.g. `UNKNOWN_METHOD`, `HANDLER_FAILED` or a handler's code. */
  remoteCode: string;
  /** The host's message. */
  remoteMessage: string;
  /** The Python exception type, for an unexpected exception. */
  remoteType?: string | undefined;
  /** Extra data the handler attached. */
  remoteData?: unknown;
  /** `not_started` when the host refused the call before its handler ran. */
  completion: Extract<CallCompletion, "complete" | "not_started">;
}

/**
 * The host answered a call with an error (code `REMOTE_ERROR`). The host's own code and message
 * are kept as they are: `UNKNOWN_METHOD`, `HANDLER_FAILED`, `CANCELLED`, `RESULT_TOO_LARGE`,
 * `INVALID_RESULT`, `SHUTTING_DOWN`, or a code a handler raised.
 */
export class RemoteCallError extends LinkError {
  override readonly name: string = "RemoteCallError";
  /** The host's own code. */
  readonly remoteCode: string;
  /** The host's message. */
  readonly remoteMessage: string;
  /** The Python exception type, for an unexpected exception. */
  readonly remoteType: string | undefined;
  /** Extra data the handler attached. */
  readonly remoteData: unknown;

  constructor(options: RemoteCallErrorOptions) {
    super({
      code: "REMOTE_ERROR",
      message: `${options.method} failed on the host: ${options.remoteCode}: ${options.remoteMessage}`,
      completion: options.completion,
      method: options.method,
      callId: options.callId,
    });
    this.remoteCode = options.remoteCode;
    this.remoteMessage = options.remoteMessage;
    this.remoteType = options.remoteType;
    this.remoteData = options.remoteData;
  }
}
