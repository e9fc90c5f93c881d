// One job on a worker: the cancel flag first (a cancel may come before any worker had the job),
// then the script in the sandbox with BullMQ's abort signal, progress and log lines on the job.
import type { DccApiExecutor } from "@dcc/executor";
import type { Job } from "bullmq";
import type { FarmJobData } from "./farm-keys.ts";

type Envelope = { success: boolean; message: string; [field: string]: unknown };

/** What {@link runFarmJob} needs besides the job. */
export interface FarmJobContext {
  executor: DccApiExecutor;
  signal: AbortSignal;
  /** The cancel reason stored for this job, or null. */
  cancelFlag(): Promise<string | null>;
  maxResultChars: number;
  maxLogLines: number;
}

/** Runs the job's script and returns the envelope BullMQ stores as its return value. */
export async function runFarmJob(
  job: Job<FarmJobData, Envelope>,
  context: FarmJobContext,
): Promise<Envelope> {
  const { executor, signal } = context;
  const dccName = job.data.dccName;
  const flagged = await context.cancelFlag().catch(() => null);
  if (flagged !== null || signal.aborted) {
    return cancelled(dccName, flagged ?? String(signal.reason ?? "Job cancelled"));
  }
  if (job.data.code === undefined) {
    return {
      success: false,
      message: `Script parameters are invalid on ${dccName}.`,
      error: "This farm worker runs code jobs; file_path jobs are not supported yet",
      errorCode: "INVALID_INPUT",
      completion: "not_started",
    };
  }
  let lines = 0;
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    const tracked = work.catch(() => {}).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const result = (await executor.execute(job.data.code, {
    ...(job.data.timeoutSecs === undefined ? {} : { timeoutSecs: job.data.timeoutSecs }),
    signal,
    onProgress: (progress) => track(job.updateProgress({ ...progress })),
    onLog: (entry) => {
      if (lines >= context.maxLogLines) return;
      lines += 1;
      track(job.log(`${entry.level}: ${entry.message}`));
    },
  })) as unknown as Envelope;
  await Promise.allSettled([...pending]);
  if (!result.success && signal.aborted) {
    // A host command that noticed the abort first fails with its own error; it was still a cancel.
    return { ...result, message: `Script was cancelled on ${dccName}.`, errorCode: "CANCELLED" };
  }
  return fit(result, context.maxResultChars);
}

function cancelled(dccName: string, reason: string): Envelope {
  return {
    success: false,
    message: `Script was cancelled on ${dccName} before it started.`,
    error: reason,
    errorCode: "CANCELLED",
    completion: "not_started",
  };
}

/** Keeps the stored envelope bounded: an oversized `output` becomes a cut JSON preview. */
function fit(result: Envelope, maxChars: number): Envelope {
  const text = JSON.stringify(result);
  if (text.length <= maxChars) return result;
  const output = JSON.stringify(result["output"] ?? null);
  const { logs: _logs, ...rest } = result;
  return {
    ...rest,
    output: output.slice(0, Math.max(0, maxChars - 2000)),
    truncated: true,
    message: `${result.message} (output cut to fit ${maxChars} characters)`,
  };
}
