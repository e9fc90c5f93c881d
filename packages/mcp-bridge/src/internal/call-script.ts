// The script facts of an execute call for its tool-call event: the text (or file and params) and
// the SHA-256 of what ran.
import { createHash } from "node:crypto";
import type { BridgeResult } from "../bridge-executor.ts";
import type { DccToolCallScript } from "../dcc-tool-call-event.ts";
import type { ExecuteArguments } from "./tool-schemas.ts";

/** The script an execute call named, or undefined for a job action or a call without one. */
export function callScript(
  args: ExecuteArguments,
  result: BridgeResult | undefined,
): DccToolCallScript | undefined {
  if (args.code !== undefined) {
    return {
      code: args.code,
      sha256: createHash("sha256").update(args.code, "utf8").digest("hex"),
    };
  }
  if (args.file_path === undefined) return undefined;
  const verified = materializedSha256(result);
  const sha256 = verified ?? args.sha256;
  return {
    filePath: args.file_path,
    ...(args.params === undefined ? {} : { params: args.params }),
    ...(sha256 === undefined ? {} : { sha256 }),
  };
}

/** The file hash the executor verified, from a result's `context.materialized_script`. */
function materializedSha256(result: BridgeResult | undefined): string | undefined {
  const context = result?.["context"];
  if (context === null || typeof context !== "object") return undefined;
  const script = (context as Record<string, unknown>)["materialized_script"];
  if (script === null || typeof script !== "object") return undefined;
  const sha256 = (script as Record<string, unknown>)["sha256"];
  return typeof sha256 === "string" ? sha256 : undefined;
}
