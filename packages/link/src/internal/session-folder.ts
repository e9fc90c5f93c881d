import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The marker the Python side checks before it removes a session folder (`session.py`). */
export const sessionMarker = ".dcc-link-session";

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
  const dir = await mkdtemp(join(baseDir, "dcc-link-"));
  try {
    await chmod(dir, 0o700); // mkdtemp already uses 0700; say so explicitly.
    await writeFile(join(dir, sessionMarker), "", { mode: 0o600 });
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
