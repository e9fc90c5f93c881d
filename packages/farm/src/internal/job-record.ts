// A BullMQ job as the bridge's JobRecord: its state, and its envelope once finished.
import type { JobRecord } from "@dcc/mcp-bridge";
import { type FarmJobData, stalledReason } from "./farm-keys.ts";

type Envelope = NonNullable<JobRecord["result"]>;

/** The fields of a BullMQ job a record is made of. */
export interface StoredJob {
  id?: string | undefined;
  data: FarmJobData;
  timestamp: number;
  processedOn?: number | null | undefined;
  finishedOn?: number | undefined;
  progress: unknown;
  returnvalue: Envelope | null;
  failedReason?: string | undefined;
}

/**
 * A job's fields from its Redis hash as `HGETALL` returns it (BullMQ's stored layout: `data`,
 * `progress` and `returnvalue` as JSON, times as decimal text); undefined for no hash.
 */
export function storedJob(jobId: string, hash: Record<string, string>): StoredJob | undefined {
  if (hash["data"] === undefined || hash["timestamp"] === undefined) return undefined;
  const time = (field: string): number | undefined => {
    const text = hash[field];
    return text === undefined || text === "" ? undefined : Number.parseInt(text, 10);
  };
  return {
    id: hash["id"] ?? jobId,
    data: parseJson(hash["data"]) as FarmJobData,
    timestamp: time("timestamp") ?? 0,
    processedOn: time("processedOn"),
    finishedOn: time("finishedOn"),
    progress: parseJson(hash["progress"] ?? "0"),
    returnvalue: (hash["returnvalue"] === undefined
      ? null
      : parseJson(hash["returnvalue"])) as Envelope,
    failedReason: hash["failedReason"],
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The record of `job` in BullMQ `state`, with the cancel flag read from Redis. */
export function toJobRecord(job: StoredJob, state: string, cancelRequested: boolean): JobRecord {
  const data = job.data;
  const base: JobRecord = {
    jobId: String(job.id),
    dccName: data.dccName,
    status: "pending",
    createdAt: job.timestamp,
    ...(data.parentJobId === undefined ? {} : { parentJobId: data.parentJobId }),
    ...(job.processedOn === undefined || job.processedOn === null
      ? {}
      : { startedAt: job.processedOn }),
    ...(isProgress(job.progress) ? { progress: job.progress } : {}),
    ...(cancelRequested ? { cancelRequested: true } : {}),
  };
  const finishedAt = job.finishedOn ?? Date.now();
  if (state === "active") return { ...base, status: "running" };
  if (state === "completed") {
    const result = job.returnvalue;
    const status =
      result?.success === true
        ? "completed"
        : result?.["errorCode"] === "CANCELLED"
          ? "cancelled"
          : "failed";
    return { ...base, status, finishedAt, ...(result == null ? {} : { result }) };
  }
  if (state === "failed") {
    const reason = job.failedReason ?? "unknown";
    const lost = reason === stalledReason;
    return {
      ...base,
      status: "failed",
      finishedAt,
      result: {
        success: false,
        message: lost
          ? `The worker running job ${job.id} on ${data.dccName} stopped (killed or lost) before it finished; the job was not run again.`
          : `Job ${job.id} failed on ${data.dccName}: ${reason}`,
        error: reason,
        errorCode: lost ? "WORKER_LOST" : "INTERNAL",
        completion: "unknown",
      },
    };
  }
  // waiting, delayed, prioritized, waiting-children: queued, no worker has it.
  return base;
}

function isProgress(value: unknown): value is NonNullable<JobRecord["progress"]> {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { progress?: unknown }).progress === "number"
  );
}
