import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";

/** The reaper every tied process runs under (see its docstring). */
export const reaperScript: string = fileURLToPath(new URL("../python/reaper.py", import.meta.url));

let python: string | undefined;

/** The real interpreter behind `python3` (a version manager's shim costs time at every start). */
function realPython(): string {
  python ??= execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
    timeout: 60_000,
  }).trim();
  return python;
}

/**
 * Options for {@link spawnTied}: Node's (`detached` only without `tree`, which always is), and how
 * the command is tied.
 */
export interface SpawnTiedOptions extends SpawnOptions {
  /**
   * `false` (default): the command itself is the child (same pid), killed by the kernel when
   * this process dies; for a command that starts nothing, or whose children end with it (a DCC
   * launched through `@dcc/link` watches its parent). `true`: the child is a reaper that leads
   * its own process group and stays the command's parent, for a command whose children would
   * outlive it (`xvfb-run` and its X server): everything below it ends with this process, and
   * what the command leaves running ends when the command exits.
   */
  tree?: boolean;
  /** With `tree`: how long what is left gets after SIGTERM before SIGKILL. Default 5000 ms. */
  graceMs?: number;
}

/**
 * Spawns `command` so that it ends with this process even when this process is killed by
 * SIGKILL (a stopped or crashed test worker), through a small Python wrapper (Linux). Plain,
 * the wrapper arms `PR_SET_PDEATHSIG` and becomes the command. With `tree`, the wrapper is a
 * reaper: it holds a pipe from here whose end-of-file it takes as this process's death, is the
 * subreaper of everything below it (so even a process that left the group is found), and then
 * ends it all (SIGTERM, SIGKILL after `graceMs`); a signal sent to it is passed on to the
 * command, it exits as the command did, and `process.kill(-child.pid, signal)` reaches every
 * process of the group. Stdio are the command's either way.
 */
export function spawnTied(
  command: string,
  args: readonly string[],
  options: SpawnTiedOptions = {},
): ChildProcess {
  const { tree = false, graceMs = 5000, stdio, detached, ...rest } = options;
  if (!tree) {
    const wrapper = ["-S", reaperScript, "exec", String(process.pid), "--"];
    return spawn(realPython(), [...wrapper, command, ...args], {
      ...rest,
      ...(stdio === undefined ? {} : { stdio }),
      ...(detached === undefined ? {} : { detached }),
    });
  }
  const streams =
    stdio === undefined || typeof stdio === "string"
      ? [stdio ?? "pipe", stdio ?? "pipe", stdio ?? "pipe"]
      : [...stdio];
  while (streams.length < 3) streams.push("pipe");
  // The reaper's own end of the pipe to this process, after the command's own descriptors.
  const parentFd = streams.length;
  const wrapper = ["-S", reaperScript, "tree", String(parentFd), String(graceMs / 1000), "--"];
  const child = spawn(realPython(), [...wrapper, command, ...args], {
    ...rest,
    stdio: [...streams, "pipe"],
    detached: true,
  });
  // Held, never written, and not a reason for this process to stay alive.
  const pipe = child.stdio[parentFd] as Socket | null | undefined;
  pipe?.on("error", () => undefined);
  pipe?.unref();
  return child;
}
