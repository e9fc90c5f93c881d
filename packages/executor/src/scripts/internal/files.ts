import { createHash, randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";

/** Hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** True when `candidate` is `root` or below it (both absolute and normalised). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Writes `data` to `target` atomically: a temporary file in the same directory, flushed, then
 * renamed over the target, so readers see the old file or the whole new one, never a torn one.
 */
export async function atomicWrite(target: string, data: Uint8Array): Promise<void> {
  const temporary = path.join(path.dirname(target), `.tmp-${randomBytes(8).toString("hex")}.part`);
  try {
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `YYYY-MM-DDTHH:MM:SSZ` for epoch milliseconds (whole seconds). */
export function formatUtc(milliseconds: number): string {
  return `${new Date(milliseconds).toISOString().slice(0, 19)}Z`;
}

/** Epoch milliseconds of a `YYYY-MM-DDTHH:MM:SSZ` string, or undefined when it is not one. */
export function parseUtc(value: unknown): number | undefined {
  if (typeof value !== "string" || value.length !== 20 || !value.endsWith("Z")) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) || formatUtc(parsed) !== value ? undefined : parsed;
}
