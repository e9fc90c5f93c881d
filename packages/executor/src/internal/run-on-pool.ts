// How the executor runs a script on a SandboxPool. Kept out of `sandbox-pool.ts` so the public
// declarations of the pool name no internal type (and, through them, no `node:worker_threads`).
import type { DispatchLane } from "../dispatch-lane.ts";
import type { SandboxPool } from "../sandbox-pool.ts";
import type { RunHooks } from "./pooled-worker.ts";
import type { RunEntry, RunLimits, RunOutcome } from "./sandbox-types.ts";

/** One script for {@link runOnPool}. */
export interface SandboxJob {
  code: string;
  entry?: RunEntry;
  limits: RunLimits;
  /** Absolute deadline in `Date.now()` milliseconds. */
  deadline: number;
  /**
   * Shared with the main thread: milliseconds added to `deadline` (the script's clock stops while
   * a person is asked to approve a command; see `ScriptClock`).
   */
  deadlineShift?: Int32Array;
  streamLogs: boolean;
  streamProgress: boolean;
  /** Commands the sandbox thread may run itself (see {@link DispatchLane}). */
  lane?: DispatchLane;
  /**
   * Shared with the main thread: while its first element is not 0 (another script's end is
   * under way on the DCC), lane calls go through the main thread, where they wait.
   */
  laneGate?: Int32Array;
}

/** How a pooled run ended: the worker's outcome, plus whether a worker ever started it. */
export type SandboxRunResult = RunOutcome & { started: boolean };

/** The pool's private run, handed over by {@link SandboxPool}'s static block. */
export type PoolRun = (
  pool: SandboxPool,
  job: SandboxJob,
  hooks: RunHooks,
  signal: AbortSignal,
) => Promise<SandboxRunResult>;

let runOn: PoolRun | undefined;

/** Called once, by `SandboxPool`'s static block. */
export function setPoolRun(run: PoolRun): void {
  runOn = run;
}

/**
 * Runs one job on a free worker of `pool` ({@link DccApiExecutor.execute} is the public way in).
 * Never rejects. `signal` cancels it: the worker's interrupt flag is raised and, if the script
 * does not stop within the grace period, the worker is terminated.
 */
export function runOnPool(
  pool: SandboxPool,
  job: SandboxJob,
  hooks: RunHooks,
  signal: AbortSignal,
): Promise<SandboxRunResult> {
  // Set whenever a SandboxPool exists: its class's static block ran when the module loaded.
  return (runOn as PoolRun)(pool, job, hooks, signal);
}
