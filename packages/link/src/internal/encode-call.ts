import type { LinkErrorCode } from "../link-error-code.ts";
import { nestsDeeperThan } from "./json-nesting.ts";
import { callFrame } from "./protocol.ts";

/**
 * Deepest nesting of a call's params (the params object is level 1). The Python side refuses
 * a deeper frame (its decoder recurses once per level), so it is refused here before sending.
 */
export const maxParamsDepth = 64;

/**
 * The call frame for `method` and `params`, or why there is none: params that JSON cannot
 * carry, that are not an object, or that nest deeper than {@link maxParamsDepth} levels.
 */
export function encodeCall(
  id: number,
  method: string,
  params: unknown,
): { frame: Buffer } | { code: LinkErrorCode; message: string } {
  let json: string | undefined;
  try {
    json = JSON.stringify(params);
  } catch (error) {
    return {
      code: "BAD_FRAME",
      message: `${method}: params are not JSON-serializable (${String(error)})`,
    };
  }
  if (json === undefined || !json.startsWith("{")) {
    return { code: "BAD_FRAME", message: `${method}: params must be a JSON object` };
  }
  if (nestsDeeperThan(json, maxParamsDepth)) {
    return {
      code: "BAD_FRAME",
      message: `${method}: params nest deeper than ${maxParamsDepth} levels, the link's limit`,
    };
  }
  return { frame: callFrame(id, method, json) };
}
