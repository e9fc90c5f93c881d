// Names shared by the server side and the workers: queue names, the cancel flag key, the event.

/** The payload of one farm job: the script and where it came from; never host secrets. */
export interface FarmJobData {
  dccName: string;
  parentJobId?: string;
  code?: string;
  /** The server's path of a materialized script, for messages; workers never read it. */
  filePath?: string;
  /** The materialized script itself, read and verified by the server at submission. */
  script?: { content: string; sha256: string };
  params?: Record<string, unknown>;
  sha256?: string;
  timeoutSecs?: number;
  /** Keep a failed script's changes instead of rolling them back. */
  keepPartialChanges?: boolean;
  /** The undo step's name, after the call. */
  undoLabel?: string;
  /**
   * Approval rules the submission approved in advance (a farm job has nobody to ask): the
   * worker's executor runs their commands without a question, and the result's
   * `stats.approvals` records them as `preapproved`.
   */
  preapproved?: string[];
  sessionId?: string;
  /** The execute tool that submitted the job, for the worker's audit line. */
  tool?: string;
  /** The label of the labelled token that submitted it, for the worker's audit line. */
  tokenLabel?: string;
  /** The name the submitting client gave itself (a claim), for the worker's audit line. */
  clientName?: string;
  /** The W3C trace context (`traceparent`, `tracestate`) of the submission, when traced. */
  trace?: Record<string, string>;
  /**
   * Set by a cancel while the job waits: the worker that takes it reads the reason with the job
   * and never starts it, without asking Redis again.
   */
  cancelReason?: string;
}

/** The BullMQ queue of one pool. */
export function queueName(pool: string): string {
  return `jobs-${pool}`;
}

/**
 * The event stream cancels are published on, apart from the queue's own: every worker of a pool
 * reads it, and on the queue's stream each would also read every job's added, active and
 * completed events. `.` cannot be in a pool name, so this never names another pool's queue.
 */
export function cancelStreamName(pool: string): string {
  return `cancel.${queueName(pool)}`;
}

/** The key that says a job was asked to stop, holding the reason. */
export function cancelKey(prefix: string, pool: string, jobId: string): string {
  return `${prefix}:${queueName(pool)}:cancel:${jobId}`;
}

/** The event a cancel publishes on {@link cancelStreamName}, which every worker of the pool reads. */
export const cancelEvent = "dcc-cancel";

/** Server-owned ids are UUIDs; anything else is refused before it reaches Redis. */
export const jobIdPattern: RegExp =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Pool names end up in Redis keys: keep them plain. */
export const poolPattern: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

/** The failure BullMQ records for a job whose worker stopped renewing its lock. */
export const stalledReason = "job stalled more than allowable limit";
