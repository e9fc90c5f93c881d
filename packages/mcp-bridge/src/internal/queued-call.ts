// A synchronous script call run on the server's job queue (a farm front end runs no host): the
// script is queued as a job under the call's own id and awaited, bounded, cancelled with the call.
import { setTimeout as delay } from "node:timers/promises";
import { executeMessage } from "@dcc/executor";
import type { BridgeResult } from "../bridge-executor.ts";
import type { JobWorkContext } from "../job-manager.ts";
import type { JobQueue, JobQueueSubmission } from "../job-queue.ts";
import type { JobRecord } from "../job-store.ts";
import { queueUnavailable, submissionFailed } from "./queue-unavailable.ts";

/** How long beyond the script's timeout a call waits: for a worker to take the job, and Redis. */
export const queuedCallMarginSecs = 60;

/** Options of {@link runQueuedCall}. */
export interface QueuedCallOptions {
  /** The job, without its id (the call's own is used). */
  submission: Omit<JobQueueSubmission, "jobId">;
  /** The script's timeout, in seconds: the call waits at most this plus the margin. */
  timeoutSecs: number;
  /** Hears the job's progress as it changes. */
  onProgress?: ((progress: NonNullable<JobRecord["progress"]>) => void) | undefined;
  /** How long a cancel waits for the worker to stop the job, in ms. Default 2000. */
  cancelWaitMs?: number;
  /** The wait beyond `timeoutSecs`, in seconds. Default {@link queuedCallMarginSecs}. */
  marginSecs?: number;
}

/**
 * Submits the script as a job with the call's id and waits for its end, polling the queue
 * (every 50 ms at first, then up to every 500 ms). A cancelled call cancels the job; a job not
 * finished within `timeoutSecs` plus {@link queuedCallMarginSecs} is cancelled and answered with
 * `TIMEOUT`. A queue that cannot be reached is `JOB_QUEUE_UNAVAILABLE`.
 */
export async function runQueuedCall(
  queue: JobQueue,
  context: JobWorkContext,
  options: QueuedCallOptions,
): Promise<BridgeResult> {
  const { dccName } = options.submission;
  const jobId = context.jobId;
  const signal = context.token.signal;
  try {
    await queue.submit({ ...options.submission, jobId });
  } catch (error) {
    return submissionFailed(dccName, error);
  }
  const marginSecs = options.marginSecs ?? queuedCallMarginSecs;
  const waitSecs = options.timeoutSecs + marginSecs;
  const deadline = Date.now() + waitSecs * 1000;
  const cancel = async (reason: string): Promise<JobRecord | undefined> => {
    try {
      return await queue.cancel(jobId, { reason, waitMs: options.cancelWaitMs ?? 2000 });
    } catch {
      return undefined;
    }
  };
  let lastProgress: number | undefined;
  let pause = 50;
  for (;;) {
    if (signal.aborted) {
      const record = await cancel("Request cancelled by client");
      return (
        (record?.status === "cancelled" ? record.result : undefined) ?? {
          success: false,
          message: executeMessage(dccName, "CANCELLED"),
          error: "Request cancelled by client",
          errorCode: "CANCELLED",
          completion: "unknown",
          job_id: jobId,
        }
      );
    }
    let record: JobRecord | undefined;
    try {
      record = await queue.get(jobId);
    } catch (error) {
      // The job may still run; its id lets the client ask again once the queue is back.
      return { ...queueUnavailable(dccName, error), job_id: jobId };
    }
    if (record === undefined) {
      return {
        success: false,
        message: `Job ${jobId} on ${dccName} is no longer known to the job queue.`,
        error: "The job's record expired or was removed",
        errorCode: "JOB_NOT_FOUND",
        completion: "unknown",
        job_id: jobId,
      };
    }
    if (record.finishedAt !== undefined) {
      return (
        record.result ?? {
          success: false,
          message: `Job ${jobId} on ${dccName} ended (${record.status}) without a result.`,
          error: `The job ended ${record.status} without a result`,
          errorCode: "INTERNAL",
          completion: "unknown",
          job_id: jobId,
        }
      );
    }
    const progress = record.progress;
    if (progress !== undefined && progress.progress !== lastProgress) {
      lastProgress = progress.progress;
      options.onProgress?.(progress);
    }
    if (Date.now() >= deadline) {
      const cancelled = await cancel(`No result within ${waitSecs} s`);
      if (cancelled?.finishedAt !== undefined && cancelled.result?.success === true) {
        return cancelled.result; // it finished just now after all
      }
      return {
        success: false,
        message: executeMessage(dccName, "TIMEOUT"),
        error: `The job did not finish within ${waitSecs} s (its timeout of ${options.timeoutSecs} s plus ${marginSecs} s for a worker to take it) and was cancelled; run long scripts, or scripts for a busy farm, with async: true`,
        errorCode: "TIMEOUT",
        completion: record.status === "pending" ? "not_started" : "unknown",
        job_id: jobId,
      };
    }
    // An abort ends the pause early; the loop's next turn cancels the job.
    await delay(Math.min(pause, Math.max(0, deadline - Date.now())), undefined, { signal }).catch(
      () => {},
    );
    pause = Math.min(500, Math.round(pause * 1.5));
  }
}
