import { DccMcpError } from "./dcc-mcp-error.ts";

/** Options for {@link ProcessTerminationError}. */
export interface ProcessTerminationErrorOptions {
  /** Process id of the child that would not exit. */
  pid: number | undefined;
  /** How long it was given after `SIGKILL`, in milliseconds. */
  waitedMs: number;
}

/**
 * A child process had not exited within the bound after `SIGKILL` (for example, stuck in
 * uninterruptible I/O). Code `"PROCESS_KILL_TIMEOUT"`.
 */
export class ProcessTerminationError extends DccMcpError {
  override readonly name: string = "ProcessTerminationError";
  /** Process id of the child that would not exit. */
  readonly pid: number | undefined;

  constructor(options: ProcessTerminationErrorOptions) {
    super({
      message: `Process ${options.pid ?? "?"} did not exit within ${options.waitedMs} ms of SIGKILL`,
      code: "PROCESS_KILL_TIMEOUT",
    });
    this.pid = options.pid;
  }
}
