import { randomUUID } from "node:crypto";
import { type CancelToken, Job } from "@dcc/cancel";
import type { ExecuteProgress } from "@dcc/executor";
import { executeMessage } from "@dcc/executor";
import type { BridgeResult } from "./bridge-executor.ts";
import { InMemoryJobStore } from "./in-memory-job-store.ts";
import { createCallToken, linkSignal } from "./internal/call-context.ts";
import { RoundTripCalls } from "./internal/round-trip-calls.ts";
import type { JobQueue } from "./job-queue.ts";
import type { JobRecord, JobStore } from "./job-store.ts";

/** Options for {@link JobManager}. */
export interface JobManagerOptions {
  /** Where async job records live. Default: a new {@link InMemoryJobStore}. */
  store?: JobStore;
  /** Most async jobs running at once; further requests are refused as busy. Default 16. */
  maxRunningJobs?: number;
  /** Most synchronous calls running at once; further calls are refused as busy. Default 64. */
  maxRunningCalls?: number;
  /**
   * Runs async jobs on this queue (workers elsewhere) instead of in process; `store` and
   * `maxRunningJobs` then apply to nothing.
   */
  queue?: JobQueue;
  /**
   * Synchronous script calls run on `queue` too: each is queued as a job and awaited (the
   * server option `syncCallsOnQueue`). Only with a `queue`. Default false.
   */
  syncCallsOnQueue?: boolean;
}

/** What a call's work receives: its token (cancel it to stop) and its server-owned job id. */
export interface JobWorkContext {
  /** The call's token; child of the parent job's token when a known parent was named. */
  token: CancelToken;
  /** Server-owned id, installed as the host job id while the work runs. */
  jobId: string;
  /** Records the latest progress on the job (async jobs only; no-op otherwise). */
  reportProgress(progress: ExecuteProgress): void;
}

/** Options for {@link JobManager.runCall} and {@link JobManager.startJob}. */
export interface JobRunOptions {
  /** DCC the work runs against. */
  dccName: string;
  /** Parent job id from `_meta.dcc.parentJobId`; cancelling the parent cancels this call. */
  parentJobId?: string;
  /** Cancels the call when aborted (the request's signal, for synchronous calls). */
  signal?: AbortSignal;
}

interface LiveCall {
  token: CancelToken;
  settled: Promise<void>;
}

/**
 * Owns every running call's cancel token under a server-owned job id, and the async jobs' state.
 * One manager is shared by all sessions of a server so a job started in one session can be polled
 * or cancelled from another, and so parent-to-child cancellation reaches across them.
 */
export class JobManager {
  /** The store holding async job records. */
  readonly store: JobStore;
  /** The queue async jobs go to, when the server has one. */
  readonly queue: JobQueue | undefined;
  /** Whether synchronous script calls run on {@link JobManager.queue} too. */
  readonly syncCallsOnQueue: boolean;
  /**
   * The 2026-07-28 script calls paused for an answer between requests, kept here because the
   * manager outlives every per-request server. The execute tool's own state, not for direct use.
   * @internal
   */
  readonly roundTrips: RoundTripCalls = new RoundTripCalls();
  readonly #maxRunningJobs: number;
  readonly #maxRunningCalls: number;
  #runningCalls = 0;
  readonly #live = new Map<string, LiveCall>();
  #runningJobs = 0;
  #closed = false;

  /** Creates a manager; see {@link JobManagerOptions} for the bounds. */
  constructor(options: JobManagerOptions = {}) {
    this.store = options.store ?? new InMemoryJobStore();
    this.queue = options.queue;
    this.syncCallsOnQueue = options.queue !== undefined && options.syncCallsOnQueue === true;
    this.#maxRunningJobs = Math.max(1, options.maxRunningJobs ?? 16);
    this.#maxRunningCalls = Math.max(1, options.maxRunningCalls ?? 64);
  }

  /** Number of calls (synchronous and async) currently running. */
  get liveCount(): number {
    return this.#live.size;
  }

  /**
   * Runs a synchronous call under a fresh server-owned job id and returns its result, or
   * undefined without running it when {@link JobManagerOptions.maxRunningCalls} calls are running.
   */
  async runCall(
    options: JobRunOptions,
    work: (context: JobWorkContext) => Promise<BridgeResult>,
  ): Promise<BridgeResult | undefined> {
    if (this.#runningCalls >= this.#maxRunningCalls) return undefined;
    this.#runningCalls += 1;
    const jobId = randomUUID();
    const parent =
      options.parentJobId === undefined ? undefined : this.#live.get(options.parentJobId)?.token;
    // An unknown or finished parent is recorded on the job but gives no token to derive from.
    const token = createCallToken(jobId, parent);
    const unlink = options.signal
      ? linkSignal(options.signal, token, "Request cancelled by client")
      : () => {};
    let settle: () => void = () => {};
    this.#live.set(jobId, { token, settled: new Promise((resolve) => (settle = resolve)) });
    if (this.#closed) token.cancel("Server is shutting down");
    try {
      return await work({ token, jobId, reportProgress: () => {} });
    } finally {
      unlink();
      this.#runningCalls -= 1;
      this.#live.delete(jobId);
      settle();
    }
  }

  /**
   * Starts an async job and returns its record at once (status `running`), or undefined when
   * {@link JobManagerOptions.maxRunningJobs} jobs are already running or the manager is closed.
   */
  startJob(
    options: JobRunOptions,
    work: (context: JobWorkContext) => Promise<BridgeResult>,
  ): JobRecord | undefined {
    if (this.#closed || this.#runningJobs >= this.#maxRunningJobs) return undefined;
    const jobId = randomUUID();
    const parent =
      options.parentJobId === undefined ? undefined : this.#live.get(options.parentJobId)?.token;
    const job = new Job({ jobId, parent });
    const record: JobRecord = {
      jobId,
      dccName: options.dccName,
      status: job.status,
      createdAt: Date.now(),
      ...(options.parentJobId === undefined ? {} : { parentJobId: options.parentJobId }),
    };
    this.store.create(record);
    this.#runningJobs += 1;
    let settle: () => void = () => {};
    this.#live.set(jobId, {
      token: job.token,
      settled: new Promise((resolve) => (settle = resolve)),
    });
    job.start();
    const startedAt = Date.now();
    this.store.update(jobId, { status: job.status, startedAt });
    const reportProgress = (progress: ExecuteProgress): void => {
      try {
        this.store.update(jobId, { progress });
      } catch {
        // Progress is advisory; a store that refuses it must not fail the script.
      }
    };
    void (async () => {
      let result: BridgeResult;
      try {
        result = await work({ token: job.token, jobId, reportProgress });
      } catch (error) {
        result = {
          success: false,
          message: executeMessage(options.dccName, "INTERNAL"),
          error: error instanceof Error ? error.message : String(error),
          errorCode: "INTERNAL",
        };
      }
      try {
        // The work has returned, so a cancel it reports is acknowledged: the job really stopped.
        if (result.success) job.complete(result);
        else if (job.cancelled && result["errorCode"] === "CANCELLED") job.acknowledgeCancel();
        else job.fail(result);
        this.store.update(jobId, { status: job.status, result, finishedAt: Date.now() });
      } finally {
        // Even a failing store must not leak the running slot or the live token.
        this.#runningJobs -= 1;
        this.#live.delete(jobId);
        settle();
      }
    })().catch(() => {});
    return { ...record, status: job.status, startedAt };
  }

  /** The job's record, or undefined when unknown or expired. */
  get(jobId: string): JobRecord | undefined {
    return this.store.get(jobId);
  }

  /**
   * Cancels a running call or job (and, through its token, every child) and waits up to `waitMs`
   * for the work to stop. Returns the record afterwards (undefined for unknown ids and for
   * synchronous calls, which have none). A finished job is left as it is.
   */
  async cancel(
    jobId: string,
    reason = "Job cancelled by client",
    waitMs = 2000,
  ): Promise<JobRecord | undefined> {
    const live = this.#live.get(jobId);
    if (live !== undefined) {
      if (this.store.get(jobId) !== undefined) this.store.update(jobId, { cancelRequested: true });
      live.token.cancel(reason);
      await waitFor(live.settled, waitMs);
    }
    return this.store.get(jobId);
  }

  /** Cancels every running call and job, then waits up to `waitMs` for them to stop. */
  async cancelAll(reason: string, waitMs = 2000): Promise<void> {
    const settled: Promise<void>[] = [];
    for (const [jobId, live] of this.#live) {
      if (this.store.get(jobId) !== undefined) this.store.update(jobId, { cancelRequested: true });
      live.token.cancel(reason);
      settled.push(live.settled);
    }
    await waitFor(
      Promise.all(settled).then(() => {}),
      waitMs,
    );
  }

  /** Refuses new work, cancels what runs, and waits up to `waitMs` for it to stop. */
  async close(waitMs = 2000): Promise<void> {
    this.#closed = true;
    await this.cancelAll("Server is shutting down", waitMs);
  }
}

async function waitFor(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
