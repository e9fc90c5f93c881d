import { randomBytes } from "node:crypto";
import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sweepStaleFolders } from "../sweep-stale-folders.ts";

/**
 * The marker the Python side checks before it removes a session folder (`session.py`). It lists
 * the folder's owners, one process id a line: the launching Node process, then the host.
 */
export const sessionMarker = ".dcc-link-session";

/** Session folder names: `dcc-link-` and six random characters. */
const sessionPrefix = "dcc-link-";

/** Longest Unix socket path every platform takes (macOS: 104 bytes with the NUL). */
const maxSocketPathBytes = 103;

/** A private folder for one launch: the socket, the token file and the host's TMPDIR. */
export interface SessionFolder {
  readonly dir: string;
  readonly tmpDir: string;
  readonly socketPath: string;
  readonly tokenFile: string;
}

/**
 * Creates a 0700 folder under `baseDir` with a 0700 `tmp/` inside, and the marker file.
 * @throws {Error} when the socket path would be too long for the platform.
 */
export async function createSessionFolder(baseDir: string = tmpdir()): Promise<SessionFolder> {
  const dir = await mkdtemp(join(baseDir, sessionPrefix));
  try {
    await chmod(dir, 0o700); // mkdtemp already uses 0700; say so explicitly.
    await writeFile(join(dir, sessionMarker), `${process.pid}\n`, { mode: 0o600 });
    const tmpDir = join(dir, "tmp");
    await mkdir(tmpDir, { mode: 0o700 });
    const socketPath = join(dir, "link.sock");
    if (Buffer.byteLength(socketPath) > maxSocketPathBytes) {
      throw new Error(
        `The socket path ${socketPath} is over ${maxSocketPathBytes} bytes; choose a shorter baseDir`,
      );
    }
    return { dir, tmpDir, socketPath, tokenFile: join(dir, "token") };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Removes a session folder and everything in it. */
export async function removeSessionFolder(folder: SessionFolder): Promise<void> {
  await rm(folder.dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A fresh random token for one launch (256 bits, base64url). */
export function createLaunchToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Writes the token to the session's 0600 token file (the host deletes it once read). */
export async function writeTokenFile(folder: SessionFolder, token: string): Promise<void> {
  await writeFile(folder.tokenFile, token, { mode: 0o600, flag: "wx" });
}

/** Adds the host's process id to the folder's owners, once it is spawned. */
export async function addSessionOwner(folder: SessionFolder, pid: number): Promise<void> {
  await appendFile(join(folder.dir, sessionMarker), `${pid}\n`);
}

/**
 * Removes the session folders under `baseDir` whose owners are all dead: left when the launcher
 * and its host were killed together (a supervisor's SIGKILL of the group), when nobody was left
 * to remove them. A folder whose marker lists no owner (or is missing) is kept.
 */
export async function sweepStaleSessionFolders(baseDir: string = tmpdir()): Promise<string[]> {
  return sweepStaleFolders({
    parent: baseDir,
    prefix: sessionPrefix,
    owners: async (path) => {
      const text = await readFile(join(path, sessionMarker), "utf8").catch(() => undefined);
      if (text === undefined) return undefined;
      const pids = text
        .split("\n")
        .filter((line) => line !== "")
        .map(Number);
      return pids.every((pid) => Number.isInteger(pid) && pid > 0) ? pids : undefined;
    },
  });
}
