// The snake_case view of a job record the agent sees.
import type { JobRecord } from "../job-store.ts";

/** Client-facing fields of a job record (no result; that comes with job_action "result"). */
export function jobView(record: JobRecord): Record<string, unknown> {
  const iso = (ms: number | undefined): string | null =>
    ms === undefined ? null : new Date(ms).toISOString();
  return {
    job_id: record.jobId,
    status: record.status,
    dcc: record.dccName,
    parent_job_id: record.parentJobId ?? null,
    created_at: iso(record.createdAt),
    started_at: iso(record.startedAt),
    finished_at: iso(record.finishedAt),
    cancel_requested: record.cancelRequested ?? false,
    ...(record.progress === undefined ? {} : { progress: record.progress }),
  };
}
