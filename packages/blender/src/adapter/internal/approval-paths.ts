// Where a save or an export would write, resolved as the host resolves it (python/dcc_blender:
// `policy.resolve`, and `//` from the open file's folder when that lies in the data folder), and
// whether a file is there already: the `overwrite` rule asks only then.
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Where paths are taken from: the data folder and the open .blend file ("" when unsaved). */
export interface PathBase {
  readonly dataDir: string;
  readonly blendFile: string;
}

/** Whether `path` (absolute) lies in `folder` (absolute), by name. */
export function isInside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (!rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest));
}

/** The absolute path the host makes of an operator's file argument. */
export function resolveHostPath(value: string, base: PathBase): string {
  if (value.startsWith("//")) {
    // Blender's "relative to the open file": that file's folder once it is saved in the data
    // folder, else the data folder itself (as the host checks it).
    const folder = base.blendFile === "" ? "" : dirname(base.blendFile);
    const from = folder !== "" && isInside(base.dataDir, folder) ? folder : base.dataDir;
    return resolve(from, value.slice(2));
  }
  return resolve(base.dataDir, value);
}

/**
 * The file a write to `path` would replace, or undefined when there is none. A path without an
 * extension also finds `name.<ext>` beside it: some exporters add their extension.
 */
export async function existingFile(path: string): Promise<string | undefined> {
  if (await isFile(path)) return path;
  if (extname(path) !== "") return undefined;
  const name = `${basename(path)}.`;
  let entries: string[];
  try {
    entries = await readdir(dirname(path));
  } catch {
    return undefined;
  }
  for (const entry of entries.sort()) {
    if (entry.startsWith(name) && (await isFile(join(dirname(path), entry)))) {
      return join(dirname(path), entry);
    }
  }
  return undefined;
}

/** A path as the person asked should read it: relative to the data folder when inside. */
export function shownPath(dataDir: string, path: string): string {
  return isInside(dataDir, path) && path !== dataDir ? relative(dataDir, path) : path;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
