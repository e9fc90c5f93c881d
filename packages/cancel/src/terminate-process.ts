import type { ChildProcess } from "node:child_process";
import { ProcessTerminationError } from "./process-termination-error.ts";

/** Options for {@link terminateProcess}. */
export interface TerminateProcessOptions {
  /** How long the process may take to exit after the first signal. Default 5000 ms. */
  graceMs?: number | undefined;
  /** How long to wait for the exit after `SIGKILL` before giving up. Default 5000 ms. */
  killTimeoutMs?: number | undefined;
  /** The polite signal sent first. Default `"SIGTERM"`. */
  signal?: NodeJS.Signals | undefined;
}

/** How a process ended under {@link terminateProcess}. */
export interface TerminateProcessResult {
  /** Exit code, when it exited by itself. */
  exitCode: number | null;
  /** The signal that ended it, when one did. */
  signalCode: NodeJS.Signals | null;
  /** True when the grace period ran out and `SIGKILL` was sent. */
  forced: boolean;
}

/**
 * Stops a child process forcefully: sends `SIGTERM` (or `options.signal`), and `SIGKILL` if it
 * is still running after `graceMs`. Resolves once the process has exited and Node has reaped it,
 * so no zombie is left; resolves at once for a process that already exited or never started.
 * @throws {ProcessTerminationError} when it is still running `killTimeoutMs` after `SIGKILL`.
 */
export async function terminateProcess(
  child: ChildProcess,
  options: TerminateProcessOptions = {},
): Promise<TerminateProcessResult> {
  let forced = false;
  const ended = (): TerminateProcessResult => ({
    exitCode: child.exitCode,
    signalCode: child.signalCode,
    forced,
  });
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return ended();
  }
  // `exit` is emitted after libuv has reaped the process, so waiting for it leaves no zombie.
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(options.signal ?? "SIGTERM");
  if (await within(exited, options.graceMs ?? 5000)) return ended();
  forced = true;
  child.kill("SIGKILL");
  const killTimeoutMs = options.killTimeoutMs ?? 5000;
  if (await within(exited, killTimeoutMs)) return ended();
  throw new ProcessTerminationError({ pid: child.pid, waitedMs: killTimeoutMs });
}

/** True if `promise` settles within `ms`; the timer is cleared either way. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
