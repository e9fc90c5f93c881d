import { readdirSync, readFileSync } from "node:fs";

/** True while the kernel has a live process `pid` (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const end = stat.lastIndexOf(")");
    return stat.slice(end + 2, end + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * Ids of the live processes whose environment contains `marker`, such as a host's private
 * session folder: the host, its wrappers (bwrap, xvfb-run) and its children all inherit it.
 */
export function processesOf(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(marker)) {
        if (processAlive(Number(entry))) found.push(Number(entry));
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** The ids of every process below `pid` (children, their children, …), from /proc. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent id is the 2nd field after the command in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while being read.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, of] of parents) {
      if (of === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** A process's command line, or `(ended)`. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "(ended)";
  }
}
