import { DccMcpError } from "@dcc/cancel";

/** Why a {@link DccLaunchError} was thrown. */
export type DccLaunchErrorCode = "LAUNCH_FAILED" | "READY_TIMEOUT" | "SANDBOX_UNAVAILABLE";

/** Options for {@link DccLaunchError}. */
export interface DccLaunchErrorOptions {
  /** `LAUNCH_FAILED` (could not spawn, exited or broke the protocol before it was ready),
   * `READY_TIMEOUT` (no ready line in time) or `SANDBOX_UNAVAILABLE` (`sandbox: "on"` where the
   * OS sandbox cannot run; the message says why). */
  code: DccLaunchErrorCode;
  /** What went wrong. */
  message: string;
  /** Exit code, when the process exited by itself. */
  exitCode?: number | null | undefined;
  /** The signal that ended it, when one did. */
  signalCode?: NodeJS.Signals | null | undefined;
  /** The end of what the process wrote to stdout and stderr. */
  output?: string | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A DCC process could not be started and connected. The process is gone when this is thrown. */
export class DccLaunchError extends DccMcpError {
  override readonly name: string = "DccLaunchError";
  declare readonly code: DccLaunchErrorCode;
  /** Exit code, when the process exited by itself. */
  readonly exitCode: number | null;
  /** The signal that ended it, when one did. */
  readonly signalCode: NodeJS.Signals | null;
  /** The end of what the process wrote to stdout and stderr. */
  readonly output: string;

  constructor(options: DccLaunchErrorOptions) {
    super({ message: options.message, code: options.code, cause: options.cause });
    this.exitCode = options.exitCode ?? null;
    this.signalCode = options.signalCode ?? null;
    this.output = options.output ?? "";
  }
}
