// Plain data shared by the sandbox runner, the worker and the pool. Everything here crosses the
// worker boundary with structured clone, so it stays JSON-like.

import type { ExecuteLogEntry } from "../execute-options.ts";
import type { ExecuteLimitName } from "../execute-result.ts";

/** Level of a captured `console.*` call. */
export type LogLevel = ExecuteLogEntry["level"];

/** Names of the limits a script can run into (the public {@link ExecuteLimitName}). */
export type LimitName = ExecuteLimitName;

/** The limits the sandbox runner enforces itself. */
export interface RunLimits {
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
  maxDispatchCalls: number;
  maxLogEntries: number;
  maxLogChars: number;
  maxArgsChars: number;
  maxArgsDepth: number;
}

/** An entry point to call after the script body ran (materialized scripts). */
export interface RunEntry {
  /** Name of a function the script defines at top level. */
  name: string;
  /** JSON text of the single argument passed to it. */
  paramsJson: string;
}

/** What to run. */
export interface RunRequest {
  code: string;
  limits: RunLimits;
  entry?: RunEntry;
  /** File name shown in guest stack traces. */
  filename?: string;
}

/** Error codes a run can end with. */
export type RunErrorCode = "SCRIPT_ERROR" | "TIMEOUT" | "CANCELLED" | "LIMIT_EXCEEDED" | "INTERNAL";

/** How a run ended. */
export type RunOutcome =
  | {
      status: "ok";
      /** The output as JSON text, within the output limit (cut to it when it was over). */
      outputJson: string;
      /** When the output was cut to fit the limit: the JSON of what was cut (an `ExecuteTruncation` without its note). */
      truncationJson?: string;
      logs: ExecuteLogEntry[];
      dispatchCalls: number;
      poisoned: boolean;
    }
  | {
      status: "error";
      errorCode: RunErrorCode;
      error: string;
      limit?: LimitName;
      logs: ExecuteLogEntry[];
      dispatchCalls: number;
      /** True when the QuickJS module can no longer be trusted and its worker must be replaced. */
      poisoned: boolean;
      /** A dispatch-lane call was left running on the host when the script stopped. */
      hostCallOpen?: boolean;
    };
