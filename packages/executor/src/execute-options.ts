import type { CancelToken } from "@dcc/cancel";
import type { Approver } from "./approval.ts";

/** A captured `console.*` line, in `ExecuteResult.logs` and streamed to `onLog`. */
export interface ExecuteLogEntry {
  level: "log" | "info" | "warn" | "error";
  message: string;
}

/** A `progress(done, total?, message?)` report from a script (throttled to one per 50 ms). */
export interface ExecuteProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Options for {@link DccApiExecutor.execute}. */
export interface ExecuteOptions {
  /** Wall-clock timeout, a whole number of seconds from 1 to `limits.maxTimeoutSecs` (300). */
  timeoutSecs?: number;
  /** Cancels the execution. */
  signal?: AbortSignal;
  /** Cancels the execution (in addition to the ambient token from `withCancelToken`). */
  cancelToken?: CancelToken;
  /** Receives progress reports. */
  onProgress?: (progress: ExecuteProgress) => void;
  /** Receives each captured log line as it happens (up to the log limits). */
  onLog?: (entry: ExecuteLogEntry) => void;
  /**
   * Keep a failed, cancelled or timed-out script's changes (as one undo step) instead of rolling
   * them back. Default false.
   */
  keepPartialChanges?: boolean;
  /**
   * The name of the undo step a successful script becomes, after the call that ran it (e.g.
   * `"dcc_execute: add a tree"`). Default `"<dcc> script"`.
   */
  undoLabel?: string;
  /**
   * Asks a person whether a command under an approval rule that is on may run (see
   * `DccApiExecutorOptions.approval`). Without it nobody can be asked: such commands fail with
   * `APPROVAL_DENIED`, unless their rule is in `preapproved`.
   */
  approve?: Approver | undefined;
  /**
   * Rules approved in advance for this script (e.g. by the person who submitted a farm job): their
   * commands run without a question, and the script's `stats.approvals` says so.
   */
  preapproved?: readonly string[] | undefined;
}
