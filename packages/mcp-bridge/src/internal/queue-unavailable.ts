// The envelope for a job queue that could not be reached: the call fails, the server does not.
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
