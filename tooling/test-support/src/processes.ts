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
