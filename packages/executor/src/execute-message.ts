import type { ExecuteErrorCode } from "./execute-result.ts";

/**
 * The `message` of an execution result on `dccName`: `Script executed successfully on {dcc}.`
 * without an error code, else the sentence for the code (`Script failed on {dcc}.` for codes
 * without their own). Everything that reports an execution, the MCP bridge included, builds its
 * message here.
 */
export function executeMessage(dccName: string, errorCode?: ExecuteErrorCode): string {
  switch (errorCode) {
    case undefined:
      return `Script executed successfully on ${dccName}.`;
    case "INVALID_INPUT":
      return `Script parameters are invalid on ${dccName}.`;
    case "TIMEOUT":
      return `Script timed out on ${dccName}.`;
    case "CANCELLED":
      return `Script was cancelled on ${dccName}.`;
    default:
      return `Script failed on ${dccName}.`;
  }
}
