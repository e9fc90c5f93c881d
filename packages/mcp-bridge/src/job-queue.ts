import type { JobRecord } from "./job-store.ts";

/**
 * One async script the bridge hands to a {@link JobQueue}: what to run and where, never host
 * configuration. The bridge mints `jobId`; a queue must use it as given and must not accept ids
 * from anywhere else.
 */
export interface JobQueueSubmission {
  /** Server-owned id (a random UUID). */
  jobId: string;
  /** DCC (instance name) the job is for; a queue picks its pool of workers from it. */
  dccName: string;
  /** Parent job id from `_meta.dcc.parentJobId`, when given. */
  parentJobId?: string;
  /** The script, for a `code` call. */
  code?: string;
  /** A materialized script's path, for a `file_path` call. */
  filePath?: string;
  /** Arguments of a `file_path` call. */
  params?: Record<string, unknown>;
  /** Expected SHA-256 of the materialized script, hex. */
  sha256?: string;
  /** Wall-clock budget of the script, in seconds. */
  timeoutSecs?: number;
  /** Keep a failed script's changes instead of rolling them back (`keep_partial`). */
  keepPartialChanges?: boolean;
  /** The undo step's name, after the call. */
  undoLabel?: string;
  /**
   * Approval rules approved in advance for this job (e.g. `["delete"]`): an async or farm job has
   * nobody to ask, so a command under a rule the worker asks before runs only when its rule is
   * here, and is denied (`APPROVAL_DENIED`, reason `no-one-to-ask`) otherwise. Kebab-case rule
   * names; a queue may refuse malformed ones.
   */
  preapproved?: string[];
  /** The MCP session that submitted the job. */
  sessionId?: string;
  /** The execute tool that submitted it, e.g. `dcc_execute`: the worker's audit line names it. */
  tool?: string;
  /** The label of the labelled token the submitting call presented (never a token itself). */
  tokenLabel?: string;
  /** The name the submitting client gave itself (`initialize`): a claim, not verified. */
  clientName?: string;
}

/** Options of {@link JobQueue.cancel}. */
export interface JobQueueCancelOptions {
  /** Why, as the worker will report it. */
  reason: string;
  /** How long to wait for the worker to acknowledge, in ms. */
  waitMs: number;
}

/**
 * A backend that runs async jobs elsewhere (a queue with workers on other hosts) instead of in
 * the server's process. When a server has one, `dcc_execute` with `async: true` submits to it and
 * `job_action` reads and cancels through it, so any server sharing the queue answers for any job.
 * Every method may reject when the backend is unreachable; the bridge turns that into a
 * `JOB_QUEUE_UNAVAILABLE` envelope and its other tools keep working. The server does not close it.
 */
export interface JobQueue {
  /** Queues a job and returns its first record (status `pending`). */
  submit(submission: JobQueueSubmission): Promise<JobRecord>;
  /** The job's record, or undefined when unknown or expired. */
  get(jobId: string): Promise<JobRecord | undefined>;
  /**
   * Asks the job to stop and waits up to `waitMs` for its worker to acknowledge. The record says
   * `cancelled` only once the worker stopped; before that, `cancelRequested` is set.
   */
  cancel(jobId: string, options: JobQueueCancelOptions): Promise<JobRecord | undefined>;
  /**
   * Resolves when the backend answers, rejects (within a few seconds) with the reason when it
   * does not. `GET /readyz` asks it, so a server whose queue is down reports itself not ready.
   */
  ready?(): Promise<void>;
}
