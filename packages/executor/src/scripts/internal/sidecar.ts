import { lstat, readFile } from "node:fs/promises";
import type { MaterializedScript } from "../materialized-script.ts";
import { ScriptMetadataError } from "../script-metadata-error.ts";

/** Sidecar path of a script. */
export function sidecarPath(scriptPath: string): string {
  return `${scriptPath}.meta.json`;
}

/** Sidecar bytes: compact JSON with sorted top-level keys, without `reused`. */
export function encodeSidecar(descriptor: MaterializedScript): Uint8Array {
  const { reused: _reused, ...stored } = descriptor;
  const sorted = Object.fromEntries(
    Object.entries(stored).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)),
  );
  return new TextEncoder().encode(JSON.stringify(sorted));
}

/**
 * The parsed sidecar of `scriptPath`, or null when there is none. A sidecar that exists but is
 * not a regular file, not a JSON object, or lacks `sha256`/`bytes` fails closed.
 */
export async function readSidecar(scriptPath: string): Promise<Record<string, unknown> | null> {
  const file = sidecarPath(scriptPath);
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const invalid = (detail: string): ScriptMetadataError =>
    new ScriptMetadataError({ filePath: scriptPath, detail });
  if (!stats.isFile()) throw invalid("the sidecar is not a regular file");
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new ScriptMetadataError({ filePath: scriptPath, detail: "not JSON", cause: error });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw invalid("not a JSON object");
  }
  const record = data as Record<string, unknown>;
  if (typeof record["sha256"] !== "string" || typeof record["bytes"] !== "number") {
    throw invalid("sha256 and bytes are required");
  }
  const schema = record["parametersSchema"];
  if (
    schema !== undefined &&
    schema !== null &&
    (typeof schema !== "object" || Array.isArray(schema))
  ) {
    throw invalid("parametersSchema must be an object or null");
  }
  return record;
}
