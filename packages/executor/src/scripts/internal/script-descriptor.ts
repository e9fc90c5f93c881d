// The descriptor of a script found on disk, built from its sidecar, with the `file://` reference
// clients receive.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ScriptAnalysis } from "../analyze-script.ts";
import type { MaterializedScript } from "../materialized-script.ts";

/** The `file://` reference of a script, with its `sha256:` digest. */
export function fileRefOf(
  filePath: string,
  sha256: string,
  bytes: number,
): MaterializedScript["fileRef"] {
  return {
    uri: pathToFileURL(filePath).href,
    digest: `sha256:${sha256}`,
    sizeBytes: bytes,
    displayName: path.basename(filePath),
  };
}

/** The descriptor of an existing script from its sidecar; fields the sidecar lacks get defaults. */
export function descriptorOf(
  sidecar: Record<string, unknown>,
  realPath: string,
  sha256: string,
  analysis: ScriptAnalysis,
): MaterializedScript {
  const text = (key: string, fallback: string): string =>
    typeof sidecar[key] === "string" ? (sidecar[key] as string) : fallback;
  const nullableText = (key: string): string | null =>
    typeof sidecar[key] === "string" ? (sidecar[key] as string) : null;
  const name = path.basename(realPath);
  const suffix = text("suffix", path.extname(name));
  return {
    filePath: realPath,
    sha256,
    bytes: sidecar["bytes"] as number,
    reused: true,
    createdAt: text("createdAt", ""),
    expiresAt: nullableText("expiresAt"),
    ttlSecs: typeof sidecar["ttlSecs"] === "number" ? sidecar["ttlSecs"] : null,
    dccType: text("dccType", "unknown"),
    instanceId: text("instanceId", "unknown"),
    sessionId: text("sessionId", "unknown"),
    scriptId: text("scriptId", name.slice(0, name.length - suffix.length)),
    language: text("language", "typescript"),
    suffix,
    toolCallId: nullableText("toolCallId"),
    correlationId: nullableText("correlationId"),
    parametersSchema: analysis.parametersSchema,
    fileRef: fileRefOf(realPath, sha256, sidecar["bytes"] as number),
  };
}
