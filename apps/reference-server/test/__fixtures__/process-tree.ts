// The processes below a process, read from /proc (Linux): deterministic, no timing.
import { readdirSync, readFileSync } from "node:fs";

/** The ids of every process descended from `pid`, from /proc. */
export function descendants(pid: number): number[] {
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
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "(ended)";
  }
}
