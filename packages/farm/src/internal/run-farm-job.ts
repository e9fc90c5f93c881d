// One job on a worker: a cancel asked before it started first (one may come before any worker had
// the job), then the script in the sandbox with BullMQ's abort signal, progress and log lines on
// the job.
import { pathToFileURL } from "node:url";
import {
  type DccApiExecutor,
  type ExecuteOptions,
  type ExecuteResult,
  executeMessage,
  preapprovedProblem,
  type ScriptStore,
} from "@dcc/executor";
import type { Job } from "bullmq";
import type { FarmJobData } from "./farm-keys.ts";

type Envelope = { success: boolean; message: string; [field: string]: unknown };

/** What {@link runFarmJob} needs besides the job. */
export interface FarmJobContext {
  /** Runs code jobs. */
  executor: DccApiExecutor;
  /** Runs materialized scripts' jobs from {@link FarmJobContext.scripts}. */
  scriptExecutor: DccApiExecutor;
  /** The worker's private store, where a job's script is written before it runs. */
  scripts: ScriptStore;
  signal: AbortSignal;
  /** The reason of a cancel asked before the job started, or null. */
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
  // Checked at submission; again here, as a job's data is whatever Redis holds.
  const problem = preapprovedProblem(job.data.preapproved);
  if (problem !== undefined) return invalid(dccName, problem);
  let lines = 0;
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    const tracked = work.catch(() => {}).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const options: ExecuteOptions = {
    ...(job.data.timeoutSecs === undefined ? {} : { timeoutSecs: job.data.timeoutSecs }),
    // The same transaction as in the server's process: rolled back on failure unless kept.
    ...(job.data.keepPartialChanges === true ? { keepPartialChanges: true } : {}),
    ...(typeof job.data.undoLabel === "string" ? { undoLabel: job.data.undoLabel } : {}),
    // Nobody can be asked on a worker: only these rules' commands run; the others are denied.
    ...(job.data.preapproved === undefined ? {} : { preapproved: job.data.preapproved }),
    signal,
    onProgress: (progress) => track(job.updateProgress({ ...progress })),
    onLog: (entry) => {
      if (lines >= context.maxLogLines) return;
      lines += 1;
      track(job.log(`${entry.level}: ${entry.message}`));
    },
  };
  const result = (await (job.data.script !== undefined
    ? runScriptJob(job.data, context, options)
    : job.data.code !== undefined
      ? executor.execute(job.data.code, options)
      : Promise.resolve(invalid(dccName, "The job has neither code nor a script")))) as Envelope;
  await Promise.allSettled([...pending]);
  if (!result.success && signal.aborted) {
    // A host command that noticed the abort first fails with its own error; it was still a cancel.
    return { ...result, message: executeMessage(dccName, "CANCELLED"), errorCode: "CANCELLED" };
  }
  return fit(result, context.maxResultChars);
}

/**
 * A materialized script's job: its content, checked against the hash the server read, is written
 * to this worker's own store and its `main` called with the job's params, validated as on the
 * server. The result names the server's path, the one the client knows.
 */
async function runScriptJob(
  data: FarmJobData,
  context: FarmJobContext,
  options: ExecuteOptions,
): Promise<Envelope> {
  const script = data.script as NonNullable<FarmJobData["script"]>;
  let local: string;
  try {
    const written = await context.scripts.materialize(script.content, {
      dccType: data.dccName,
      sessionId: "farm",
      reuse: true,
    });
    if (written.sha256 !== script.sha256) {
      return invalid(data.dccName, `The job's script does not match its sha256 ${script.sha256}`);
    }
    local = written.filePath;
  } catch (error) {
    return invalid(data.dccName, error instanceof Error ? error.message : String(error));
  }
  const result = await context.scriptExecutor.executeParams(
    {
      filePath: local,
      params: data.params ?? {},
      sha256: script.sha256,
      ...(data.timeoutSecs === undefined ? {} : { timeoutSecs: data.timeoutSecs }),
    },
    options,
  );
  return withServerPath(result, data.filePath ?? local) as unknown as Envelope;
}

function withServerPath(result: ExecuteResult, filePath: string): ExecuteResult {
  if (!result.success) return result;
  const described = result.context["materialized_script"];
  if (typeof described !== "object" || described === null || Array.isArray(described)) {
    return result;
  }
  const fileRef = described["fileRef"];
  return {
    ...result,
    context: {
      ...result.context,
      materialized_script: {
        ...described,
        filePath,
        path: filePath,
        ...(typeof fileRef === "object" && fileRef !== null && !Array.isArray(fileRef)
          ? { fileRef: { ...fileRef, uri: pathToFileURL(filePath).href } }
          : {}),
      },
    },
  };
}

function invalid(dccName: string, error: string): Envelope {
  return {
    success: false,
    message: executeMessage(dccName, "INVALID_INPUT"),
    error,
    errorCode: "INVALID_INPUT",
    completion: "not_started",
  };
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
  // Images are bounded by the executor's image limits; the character budget is for the JSON.
  const { images, ...json } = result;
  if (images !== undefined) return { ...fit(json as Envelope, maxChars), images };
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
