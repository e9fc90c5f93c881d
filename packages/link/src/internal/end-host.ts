import type { ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { type TerminateProcessResult, terminateProcess } from "@dcc/cancel";
import { sleep } from "./backoff.ts";

/** Sends `signal` to every process of group `pgid`; false once none is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a host with `terminateProcess` (SIGTERM, SIGKILL after `graceMs`). With `group`, the host
 * leads its own process group (spawned detached), so a wrapper such as `xvfb-run` and everything
 * it started go too: SIGTERM reaches every member at once, members that outlive the leader get
 * the rest of the grace period, then SIGKILL.
 */
export async function endHost(
  child: ChildProcess,
  options: { graceMs: number; group: boolean },
): Promise<TerminateProcessResult> {
  // Tell the host's watchdog this is on purpose: this process lives on and removes the
  // session folder itself, so the host need not wait to see whether its parent is dying too.
  const watchdog = child.stdio[3] as Socket | null | undefined;
  if (watchdog?.writable === true) watchdog.write("\n");
  const pgid = child.pid;
  if (!options.group || pgid === undefined) {
    return terminateProcess(child, { graceMs: options.graceMs });
  }
  const deadline = Date.now() + options.graceMs;
  signalGroup(pgid, "SIGTERM");
  const result = await terminateProcess(child, { graceMs: options.graceMs });
  const never = new AbortController().signal;
  while (signalGroup(pgid, 0) && Date.now() < deadline) await sleep(50, never);
  signalGroup(pgid, "SIGKILL");
  return result;
}
