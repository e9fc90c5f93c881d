import { CancelToken } from "./cancel-token.ts";
import type { CancellationProbe } from "./cancellation-probe.ts";
import type { JobHandle } from "./job-handle.ts";
import { JobStateError } from "./job-state-error.ts";
import { isTerminalJobStatus, type JobStatus } from "./job-status.ts";

/** Options for {@link Job}. */
export interface JobOptions {
  /** Server-owned job id (generate it on the server; never take it from the client). */
  jobId?: string | undefined;
  /** Parent job or token: cancelling it cascades to this job's token, never the reverse. */
  parent?: Job | CancellationProbe | undefined;
}

/**
 * An asynchronous job's lifecycle, as upstream. Cancelling only *requests*: it sets the job's
 * token and the job stays `running` until its work calls {@link Job.acknowledgeCancel}, the only
 * way into `cancelled`. Refused transitions throw {@link JobStateError}. A job is a
 * {@link JobHandle}, so a dispatcher can publish it with {@link setCurrentJob}.
 */
export class Job implements JobHandle {
  /** Server-owned job id, when there is one. */
  readonly jobId: string | undefined;
  /** The job's token; work may pass `token.signal` to APIs that take an `AbortSignal`. */
  readonly token: CancelToken;
  #status: JobStatus = "pending";
  #result: unknown;
  #error: unknown;

  constructor(options: JobOptions = {}) {
    this.jobId = options.jobId === "" ? undefined : options.jobId;
    const parent = options.parent instanceof Job ? options.parent.token : options.parent;
    this.token = new CancelToken({ jobId: this.jobId, parent });
  }

  /** Current status. */
  get status(): JobStatus {
    return this.#status;
  }

  /** True once cancellation was requested (even while the job is still `running`). */
  get cancelled(): boolean {
    return this.token.cancelled;
  }

  /** Why cancellation was requested, if a reason was given. */
  get reason(): string | undefined {
    return this.token.reason;
  }

  /** True when cancellation was requested but the work has not acknowledged it yet. */
  get cancelRequested(): boolean {
    return this.token.cancelled && !isTerminalJobStatus(this.#status);
  }

  /** True once the job reached a status it never leaves. */
  get terminal(): boolean {
    return isTerminalJobStatus(this.#status);
  }

  /** The value passed to {@link Job.complete}. */
  get result(): unknown {
    return this.#result;
  }

  /** The error passed to {@link Job.fail}. */
  get error(): unknown {
    return this.#error;
  }

  /** `pending` → `running`. */
  start(): void {
    this.#move("start", ["pending"], "running");
  }

  /** `running` → `completed`; refused once the job has left `running`. */
  complete(result?: unknown): void {
    this.#move("complete", ["running"], "completed");
    this.#result = result;
  }

  /** `pending` | `running` → `failed`. */
  fail(error?: unknown): void {
    this.#move("fail", ["pending", "running"], "failed");
    this.#error = error;
  }

  /**
   * Requests cancellation: sets the token (cascading to child jobs) and leaves the status as it
   * is. Allowed only while `pending` or `running`; repeating it changes nothing.
   */
  requestCancel(reason?: string): void {
    if (this.terminal) {
      throw new JobStateError({ action: "cancel", status: this.#status, jobId: this.jobId });
    }
    this.token.cancel(reason);
  }

  /**
   * `pending` | `running` → `cancelled`, called by the work (or the queue that skips it) once it
   * has stopped. Refused unless cancellation was requested.
   */
  acknowledgeCancel(): void {
    if (!this.token.cancelled && !this.terminal) {
      throw new JobStateError({
        action: "acknowledge cancel of",
        status: this.#status,
        jobId: this.jobId,
        message: `Cannot acknowledge cancel of job${this.jobId === undefined ? "" : ` ${this.jobId}`}: no cancellation was requested`,
      });
    }
    this.#move("acknowledge cancel of", ["pending", "running"], "cancelled");
  }

  /** `pending` | `running` → `interrupted`, e.g. when the server shuts down. */
  interrupt(): void {
    this.#move("interrupt", ["pending", "running"], "interrupted");
  }

  #move(action: string, from: readonly JobStatus[], to: JobStatus): void {
    if (!from.includes(this.#status)) {
      throw new JobStateError({ action, status: this.#status, jobId: this.jobId });
    }
    this.#status = to;
  }
}
