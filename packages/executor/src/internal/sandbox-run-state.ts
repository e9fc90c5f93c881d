// What the host functions of a prepared sandbox and the run it serves share: the host, the
// request, its log buffer and dispatch count, and why it was stopped.

import type { ExecuteLogEntry, ExecuteProgress } from "../execute-options.ts";
import type { GuestLimit } from "./guest-errors.ts";
import type { LogBuffer } from "./log-buffer.ts";
import type { LimitName, RunErrorCode, RunRequest } from "./sandbox-types.ts";

/** Why a run was stopped from outside. */
export type StopReason = "cancelled" | "timeout";

/** What the runner needs from whoever hosts it (the worker, or a test). */
export interface SandboxHost {
  /** Polled by the interrupt handler and around dispatch waits. */
  checkStop(): StopReason | null;
  /** Runs a host command; returns reply JSON text, or null when the run was stopped meanwhile. */
  dispatch(name: string, argsJson: string): string | null;
  log?(entry: ExecuteLogEntry): void;
  progress?(update: ExecuteProgress): void;
}

/** How a run was stopped: from outside, or by a limit the host functions enforce. */
export interface Stop {
  errorCode: RunErrorCode;
  error: string;
  limit?: LimitName;
}

/** Mutable state of the run a prepared sandbox is currently serving. */
export interface RunState {
  request: RunRequest;
  host: SandboxHost;
  logs: LogBuffer;
  dispatchCalls: number;
  stop: Stop | null;
  /**
   * The first limit a promise callback ran into. Its error became a rejection the script may
   * never read, so a run left waiting on nothing reports this limit rather than a deadlock.
   */
  jobLimit: GuestLimit | null;
}

/** The {@link Stop} for a stop from outside. */
export const stopFrom = (reason: StopReason): Stop =>
  reason === "cancelled"
    ? { errorCode: "CANCELLED", error: "Script was cancelled" }
    : { errorCode: "TIMEOUT", error: "Script exceeded its timeout", limit: "timeout" };
