// Gate files: a host handler given a gate waits for the file, so a test decides when it answers.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A file a host handler waits for: `open()` creates it. A sandboxed host must be shown `folder`. */
export interface Gate {
  readonly path: string;
  readonly folder: string;
  open(): void;
}

const folders: string[] = [];

/** A new, still closed gate in its own temporary folder (removed by {@link removeGates}). */
export function newGate(): Gate {
  const folder = mkdtempSync(join(tmpdir(), "dcc-link-gate-"));
  folders.push(folder);
  const path = join(folder, "open");
  return { path, folder, open: () => writeFileSync(path, "") };
}

/** Removes every gate's folder {@link newGate} made. */
export function removeGates(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}
