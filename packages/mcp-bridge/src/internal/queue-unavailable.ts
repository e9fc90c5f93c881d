// The envelopes for a job queue that could not take or answer a call: the call fails, the server
// does not.
import { DccMcpError } from "@dcc/cancel";
import { executeMessage, ScriptErrorCode } from "@dcc/executor";
import type { BridgeResult } from "../bridge-executor.ts";

/** `success: false` with `JOB_QUEUE_UNAVAILABLE` and the queue's own error text. */
export function queueUnavailable(dccName: string, error: unknown): BridgeResult {
  return {
    success: false,
    message: `The job queue for ${dccName} is unavailable; try again later.`,
    error: error instanceof Error ? error.message : String(error),
    errorCode: "JOB_QUEUE_UNAVAILABLE",
    completion: "unknown",
  };
}

const scriptCodes: ReadonlySet<string> = new Set(Object.values(ScriptErrorCode));

/**
 * A submission the queue refused: a materialized script it could not read or verify (not found,
 * outside the root, expired, wrong sha256) is the caller's input, as it is for a script run here;
 * anything else is the queue being unavailable.
 */
export function submissionFailed(dccName: string, error: unknown): BridgeResult {
  if (DccMcpError.is(error) && scriptCodes.has(error.code)) {
    return {
      success: false,
      message: executeMessage(dccName, "INVALID_INPUT"),
      error: error.message,
      errorCode: "INVALID_INPUT",
      completion: "not_started",
    };
  }
  return queueUnavailable(dccName, error);
}
