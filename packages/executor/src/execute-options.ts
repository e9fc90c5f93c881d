import type { CancelToken } from "@dcc/cancel";

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
}
