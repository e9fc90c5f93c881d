import { ScriptOptionsError } from "../script-options-error.ts";
import type { MaterializeOptions } from "../script-store.ts";

/**
 * Checks the arguments of `ScriptStore.materialize` before anything is written.
 * @throws {ScriptOptionsError} naming the first bad option.
 */
export function validateMaterializeOptions(
  code: string,
  options: MaterializeOptions,
  max: number,
): void {
  const fail = (option: string, detail: string): never => {
    throw new ScriptOptionsError({ option, detail });
  };
  if (typeof code !== "string") fail("code", "must be a string");
  if (Buffer.byteLength(code, "utf8") > max) fail("code", `is larger than ${max} bytes`);
  if (typeof options.dccType !== "string") fail("dccType", "must be a string");
  for (const key of [
    "instanceId",
    "sessionId",
    "reuseKey",
    "suffix",
    "toolCallId",
    "correlationId",
  ] as const) {
    if (options[key] !== undefined && typeof options[key] !== "string")
      fail(key, "must be a string");
  }
  if (options.reuse !== undefined && typeof options.reuse !== "boolean")
    fail("reuse", "must be a boolean");
  const ttl = options.ttlSecs;
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isSafeInteger(ttl) || ttl <= 0)) {
    fail("ttlSecs", "must be a positive integer number of seconds");
  }
}
