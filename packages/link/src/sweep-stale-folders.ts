import { readFileSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { join } from "node:path";

/** Options for {@link sweepStaleFolders}. */
export interface SweepStaleFoldersOptions {
  /** The folder to look in, e.g. `os.tmpdir()`. */
  parent: string;
  /** Only folders whose name starts with this are considered, e.g. `dcc-link-`. */
  prefix: string;
  /**
   * The processes that own a folder. It is removed only when this names at least one process
   * and none of them is alive; `undefined` or an empty list (unknown owners) keeps it.
   */
  owners: (
    path: string,
    name: string,
  ) => readonly number[] | undefined | Promise<readonly number[] | undefined>;
}

/**
 * Whether a process with this id runs (one owned by another user included). A zombie, dead but
 * not yet reaped by its new parent, does not count (Linux).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return true; // no /proc: kill(pid, 0) is all there is
  }
}

/**
 * Removes the folders that processes made for themselves and could not remove because they were
 * killed: those under `parent` named `prefix…`, owned by this user, whose owners are all dead.
 * Never throws: a folder it cannot read or remove is left.
 * @returns the folders removed.
 */
export async function sweepStaleFolders(options: SweepStaleFoldersOptions): Promise<string[]> {
  const names = await readdir(options.parent).catch(() => [] as string[]);
  const uid = process.getuid?.();
  const removed: string[] = [];
  await Promise.all(
    names.map(async (name) => {
      if (!name.startsWith(options.prefix)) return;
      const path = join(options.parent, name);
      try {
        const stat = await lstat(path);
        if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) return;
        const owners = await options.owners(path, name);
        if (owners === undefined || owners.length === 0 || owners.some(processAlive)) return;
        await rm(path, { recursive: true, force: true });
        removed.push(path);
      } catch {
        // Gone already, or not ours to remove.
      }
    }),
  );
  return removed;
}
