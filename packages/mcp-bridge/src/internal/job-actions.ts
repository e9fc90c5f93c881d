// dcc_execute({ job_id, job_action }): status, result and cancel of async jobs, on the same tool so
// clients that never use jobs still see exactly two tools.
import { isTerminalJobStatus } from "@dcc/cancel";
import type { BridgeResult } from "../bridge-executor.ts";
import type { JobManager } from "../job-manager.ts";
import type { JobRecord } from "../job-store.ts";
import { jobView } from "./job-view.ts";
import { queueUnavailable } from "./queue-unavailable.ts";
import type { ExecuteArguments } from "./tool-schemas.ts";

/** Settings of the job actions. */
export interface JobActionSettings {
  jobs: JobManager;
  dccName: string;
  executeToolName: string;
}

/** Answers a job action; unknown ids and bad combinations come back as `success: false`. */
export async function runJobAction(
  args: ExecuteArguments,
  settings: JobActionSettings,
): Promise<BridgeResult> {
  const { jobs, dccName } = settings;
  const invalid = (error: string): BridgeResult => ({
    success: false,
    message: `Job request is invalid on ${dccName}.`,
    error,
    errorCode: "INVALID_INPUT",
  });
  if (args.job_id === undefined || args.job_id === "") return invalid("job_action needs job_id");
  if (args.job_action === undefined)
    return invalid('job_id needs job_action: "status", "result" or "cancel"');
  if (args.code !== undefined || args.file_path !== undefined || args.async !== undefined) {
    return invalid("Pass either a script (code or file_path) or job_id with job_action, not both");
  }
  const jobId = args.job_id;
  const queue = jobs.queue;
  let found: JobRecord | undefined;
  try {
    found = queue === undefined ? jobs.get(jobId) : await queue.get(jobId);
  } catch (error) {
    return queueUnavailable(dccName, error);
  }
  if (found === undefined || found.dccName !== dccName) {
    return {
      success: false,
      message: `Job ${jobId} was not found on ${dccName} (unknown or expired).`,
      error: "Unknown job id",
      errorCode: "JOB_NOT_FOUND",
    };
  }
  if (args.job_action === "cancel") {
    if (isTerminalJobStatus(found.status)) {
      return {
        success: true,
        message: `Job ${jobId} already finished (${found.status}).`,
        job: jobView(found),
      };
    }
    let after: JobRecord;
    try {
      const reason = "Job cancelled by client";
      after =
        (queue === undefined
          ? await jobs.cancel(jobId, reason)
          : await queue.cancel(jobId, { reason, waitMs: 2000 })) ?? found;
    } catch (error) {
      return queueUnavailable(dccName, error);
    }
    const stopped = isTerminalJobStatus(after.status);
    return {
      success: true,
      message: stopped
        ? `Job ${jobId} stopped (${after.status}).`
        : `Cancel requested for job ${jobId}; it has not stopped yet. Check its status again.`,
      job: jobView(after),
    };
  }
  if (
    args.job_action === "result" &&
    isTerminalJobStatus(found.status) &&
    found.result !== undefined
  ) {
    return { ...found.result, job: jobView(found) };
  }
  const running = !isTerminalJobStatus(found.status);
  return {
    success: true,
    message: running
      ? `Job ${jobId} is ${found.status} on ${dccName}${args.job_action === "result" ? "; no result yet, ask again later" : ""}.`
      : `Job ${jobId} is ${found.status}; call job_action "result" for its outcome.`,
    job: jobView(found),
  };
}
