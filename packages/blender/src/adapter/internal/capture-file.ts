// The file a capture lands in, chosen, created, checked, read and removed by the host alone.
// Blender (or code that took it over) may put anything at that path before the host reads it: a
// link to a file only the host can see, a FIFO that never ends, a huge or growing file, a folder.
// So the host creates the file itself in a fresh 0700 folder, opens it without following links
// and without blocking, accepts only the very file it created, bounded in size, reads it under a
// deadline, and removes only what it created.
import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdtemp, open, realpath, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { BlenderCommandError } from "../blender-command-error.ts";

/** Largest capture accepted: a 1024² RGB PNG is at most about 3 MiB. */
export const maxCaptureBytes: number = 16 * 1024 * 1024;

/** How long reading a capture may take: a local file of a few MiB reads in milliseconds. */
export const captureReadTimeoutMs: number = 10_000;

/** A capture file the host created: where it is and which file it is. */
export interface CaptureFile {
  /** The fresh 0700 folder holding it (real path, so a sandboxed Blender sees the same one). */
  readonly folder: string;
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Creates an empty 0600 capture file in a fresh 0700 folder under `parent` (the launched
 * Blender's session folder, or the host's temporary folder for an attached one).
 */
export async function createCaptureFile(parent: string, extension: string): Promise<CaptureFile> {
  const folder = await realpath(await mkdtemp(join(parent, "dcc-capture-")));
  const path = join(folder, `dcc-capture-image${extension}`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(path, flags, 0o600);
  try {
    const { dev, ino } = await handle.stat();
    return { folder, path, dev, ino };
  } finally {
    await handle.close();
  }
}

/** Options for {@link readCaptureFile}. */
export interface ReadCaptureOptions {
  /** The command, for the error. */
  command: string;
  /** Ends the read early (the script's cancel or deadline). */
  signal?: AbortSignal | undefined;
  /** Default {@link maxCaptureBytes}. */
  maxBytes?: number | undefined;
  /** Default {@link captureReadTimeoutMs}. */
  timeoutMs?: number | undefined;
}

/**
 * The bytes of `file`, if what is at its path is still the regular file the host created and
 * holds at most `maxBytes`.
 * @throws {BlenderCommandError} `CAPTURE_REJECTED` naming what was found instead, or that the
 *   read did not end in time.
 */
export async function readCaptureFile(
  file: CaptureFile,
  options: ReadCaptureOptions,
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? maxCaptureBytes;
  const timeoutMs = options.timeoutMs ?? captureReadTimeoutMs;
  const reject = (problem: string, cause?: unknown): BlenderCommandError =>
    new BlenderCommandError({
      command: options.command,
      code: "CAPTURE_REJECTED",
      message: `${options.command}: the capture was refused: ${problem}`,
      cause,
    });
  const deadline = AbortSignal.any([
    AbortSignal.timeout(timeoutMs),
    ...(options.signal === undefined ? [] : [options.signal]),
  ]);
  const late = (): BlenderCommandError =>
    reject(
      options.signal?.aborted === true
        ? "the command was stopped while its file was read"
        : `its file was not read within ${timeoutMs} ms`,
    );

  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer forever.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const opening = open(file.path, flags);
  let handle: FileHandle;
  try {
    handle = await beforeDeadline(opening, deadline, late);
  } catch (error) {
    // A late open still gets its descriptor closed.
    opening.then((late) => late.close()).catch(() => undefined);
    if (error instanceof BlenderCommandError) throw error;
    throw reject(openProblem(error as NodeJS.ErrnoException), error);
  }
  let pending = false;
  try {
    const stats = await beforeDeadline(handle.stat(), deadline, late);
    if (!stats.isFile()) throw reject(`${file.path} is ${kindOf(stats)}, not a regular file`);
    if (stats.dev !== file.dev || stats.ino !== file.ino) {
      throw reject(`${file.path} is not the file the host created there (it was replaced)`);
    }
    if (stats.size > maxBytes) {
      throw reject(`${file.path} holds ${stats.size} bytes, over the bound of ${maxBytes}`);
    }
    if (stats.size === 0) throw reject(`Blender wrote nothing to ${file.path}`);
    // One byte more than expected tells a file that grew while it was read.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      pending = true;
      const { bytesRead } = await beforeDeadline(
        handle.read(buffer, length, buffer.length - length, length),
        deadline,
        late,
      );
      pending = false;
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) {
        throw reject(`${file.path} grew while it was read (past ${length - 1} bytes)`);
      }
    }
    return buffer.subarray(0, length);
  } finally {
    // A FileHandle's close waits for its pending reads: a read past the deadline is left to end
    // by itself, and the descriptor is closed then.
    const closing = handle.close().catch(() => undefined);
    if (!pending) await closing;
  }
}

/**
 * Removes the capture file only if the file at its path is still the one the host created, then
 * its folder if nothing else was put there (an attached Blender's leftovers stay; a launched
 * Blender's session folder goes with it).
 */
export async function removeCaptureFile(file: CaptureFile): Promise<void> {
  const found = await lstat(file.path).catch(() => undefined);
  if (found !== undefined && found.dev === file.dev && found.ino === file.ino) {
    await unlink(file.path).catch(() => undefined);
  }
  await rmdir(file.folder).catch(() => undefined);
}

function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal, late: () => Error): Promise<T> {
  if (deadline.aborted) return Promise.reject(late());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(late());
    deadline.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        deadline.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        deadline.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function openProblem(error: NodeJS.ErrnoException): string {
  if (error.code === "ELOOP") return `${error.path ?? "its file"} is a symbolic link`;
  if (error.code === "ENOENT") return `${error.path ?? "its file"} is missing`;
  return `its file could not be opened (${error.message})`;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "a file of another kind";
}
