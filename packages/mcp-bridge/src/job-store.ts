import type { JobStatus } from "@dcc/cancel";
import type { ExecuteProgress } from "@dcc/executor";
import type { BridgeResult } from "./bridge-executor.ts";

/** What the store keeps about one async job. Plain JSON so other backends can persist it. */
export interface JobRecord {
  /** Server-owned id (a random UUID); never taken from the client. */
  jobId: string;
  /** DCC the job runs against. */
  dccName: string;
  /**
   * Current status, from `@dcc/cancel`'s `Job` state machine: `pending`, `running`, then
   * `completed`, `failed` or `cancelled` (reached only once the work has really stopped).
   */
  status: JobStatus;
  /** Parent job id from `_meta.dcc.parentJobId`, when given. */
  parentJobId?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds when the script started. */
  startedAt?: number;
  /** Epoch milliseconds when the job reached a terminal status. */
  finishedAt?: number;
  /** Latest progress the script reported. */
  progress?: ExecuteProgress;
  /** True once cancel was asked for (the status stays `running` until the work stops). */
  cancelRequested?: boolean;
  /** The execute envelope, once terminal. */
  result?: BridgeResult;
}

/**
 * Where async job state lives. The in-memory {@link InMemoryJobStore} is the default; a persistent
 * or shared backend implements the same four methods.
 */
export interface JobStore {
  /** Stores a new record. */
  create(record: JobRecord): void;
  /** Returns a copy of the record, or undefined when unknown or expired. */
  get(jobId: string): JobRecord | undefined;
  /** Merges `patch` into an existing record; ignored when the record is gone. */
  update(jobId: string, patch: Partial<Omit<JobRecord, "jobId">>): void;
  /** Lists records, newest first. */
  list(): JobRecord[];
}
