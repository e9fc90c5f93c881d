import type { LinkErrorCode } from "../link-error-code.ts";
import { callFrame } from "./protocol.ts";

/**
 * The call frame for `method` and `params`, or why there is none: params that JSON cannot
 * carry, or that are not an object.
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
  return { frame: callFrame(id, method, json) };
}
