import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import path from "node:path";
import { ScriptNotFoundError } from "../script-not-found-error.ts";
import { ScriptPathOutsideRootError } from "../script-path-outside-root-error.ts";
import { isInside } from "./files.ts";

/** A script file opened after its path was confined to the root. */
export interface ConfinedFile {
  /** Real path of the file (no symlinks), inside the real root. */
  realPath: string;
  /** Open read-only handle; the caller closes it. */
  handle: FileHandle;
  /** Size in bytes. */
  size: number;
}

/**
 * Confines `filePath` (absolute, or relative to the root) to `root` and opens it:
 * a `..` segment is refused outright; the path must sit under the root lexically; after
 * `realpath` (so symlinks are followed) it must still sit under the real root; and it must be a
 * regular file. The file is opened with O_NOFOLLOW on its real path so a symlink swapped in
 * after the check is not followed (and O_NONBLOCK so a FIFO cannot hang the open).
 */
export async function openConfined(root: string, filePath: string): Promise<ConfinedFile> {
  const outside = (reason: string): ScriptPathOutsideRootError =>
    new ScriptPathOutsideRootError({ filePath, reason });
  if (filePath.includes("\0")) throw outside("contains a NUL character");
  if (filePath.split(/[\\/]/).includes("..")) throw outside("contains a .. segment");
  const lexicalRoot = path.resolve(root);
  const candidate = path.resolve(lexicalRoot, filePath);
  const realRoot = await realpathOrNull(lexicalRoot);
  if (!isInside(lexicalRoot, candidate) && (realRoot === null || !isInside(realRoot, candidate))) {
    throw outside("not under the scripts root");
  }
  if (realRoot === null) throw new ScriptNotFoundError({ filePath, detail: "no scripts root yet" });
  const realPath = await realpathOrNull(candidate);
  if (realPath === null) throw new ScriptNotFoundError({ filePath });
  if (!isInside(realRoot, realPath)) throw outside("a symlink leads outside the scripts root");
  let handle: FileHandle;
  try {
    handle = await open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new ScriptNotFoundError({ filePath, detail: "cannot be opened", cause: error });
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new ScriptNotFoundError({ filePath, detail: "not a regular file" });
  }
  return { realPath, handle, size: stats.size };
}

async function realpathOrNull(target: string): Promise<string | null> {
  try {
    return await realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return null;
    throw error;
  }
}
