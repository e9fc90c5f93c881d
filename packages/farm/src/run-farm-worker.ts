import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AdapterApprovalOptions,
  createAdapterExecutor,
  type DccAdapter,
  type DccHostStatus,
  type ExecutorLimits,
  preapprovedProblem,
  ScriptStore,
} from "@dcc/executor";
import { sweepStaleFolders } from "@dcc/link";
import type { DccToolCallObserver } from "@dcc/mcp-bridge";
import { type ConnectionOptions, type Job, QueueEvents, WaitingError, Worker } from "bullmq";
import { FarmError } from "./farm-error.ts";
import type { FarmRedisOptions } from "./farm-redis-options.ts";
import {
  cancelEvent,
  cancelStreamName,
  type FarmJobData,
  poolPattern,
  queueName,
} from "./internal/farm-keys.ts";
import { jobEvent } from "./internal/job-event.ts";
import { runTracedJob } from "./internal/job-trace.ts";
import { endClients, toRedisOptions } from "./internal/redis-connection.ts";
import { runFarmJob } from "./internal/run-farm-job.ts";

type Envelope = { success: boolean; message: string; [field: string]: unknown };

/** Options for {@link runFarmWorker}. */
export interface FarmWorkerOptions {
  /** The farm's Redis, from host configuration. */
  redis: FarmRedisOptions;
  /** The pool this worker takes jobs from, e.g. `maya`. */
  pool: string;
  /** The DCC this worker owns; started here, closed by {@link FarmWorker.close}. */
  adapter: DccAdapter;
  /** Sandbox limits of every job this worker runs. */
  limits?: Partial<ExecutorLimits>;
  /**
   * Approval rules this worker's jobs are held to: `ask` names the rules that are on (the shared
   * `delete`, `overwrite`, `open`, `render` as the adapter declares them, or custom ones in
   * `rules`, e.g. from `commandApprovalRule`). Nobody can be asked on a farm, so a command under
   * a rule that is on runs only when the job's submission pre-approved the rule (`preapproved`);
   * otherwise it fails with `APPROVAL_DENIED`, reason `no-one-to-ask`, and nothing of it ran.
   */
  approval?: Pick<AdapterApprovalOptions, "ask" | "rules">;
  /** How long a job's lock lasts without renewal, in ms: a killed worker's job is found after this. Default 30 000. */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died, in ms. Default 30 000. */
  stalledIntervalMs?: number;
  /** Times a job whose worker died is queued again before it fails. Default 0: it fails, as a script may not be safe to run twice. */
  maxStalledCount?: number;
  /** Largest result JSON kept in Redis, in characters; a larger `output` is cut. Default 24 000. */
  maxResultChars?: number;
  /** Most console lines kept in a job's log. Default 200. */
  maxLogLines?: number;
  /** How long the adapter's `start` may take, in ms. Default 60 000. */
  startTimeoutMs?: number;
  /**
   * Hears the adapter's host status. While the host is unavailable (a DCC restarting after a
   * crash, or given up on after a crash loop) the worker takes no new jobs, so the pool's other
   * workers get them; it takes jobs again once the host is ready.
   */
  onHostStatus?: (status: DccHostStatus) => void;
  /**
   * Told when a job ends, as a tool-call event with `phase: "job"` and the job id the server
   * minted (its own submission line has the same): pass an audit log's `record` here. What it
   * throws is ignored.
   */
  onToolCall?: DccToolCallObserver;
}

/** A running worker. */
export interface FarmWorker {
  /** The pool it serves. */
  readonly pool: string;
  /** Stops taking jobs, cancels the one running, then closes Redis, the sandbox and the adapter. Idempotent. */
  close(): Promise<void>;
}

/**
 * Runs one farm worker: starts `adapter`, then takes jobs of `pool` one at a time, runs each in
 * the adapter's sandbox with its limits and the job's timeout, reports progress and console
 * lines to the job while it runs, and stops a job when any server asks to cancel it.
 * @throws {@link FarmError} `INVALID_CONFIG` for a bad pool or Redis URL; `INVALID_APPROVAL_RULE`
 *   (a `DccMcpError` of `@dcc/executor`) for an `approval.ask` name that is neither shared nor a
 *   custom rule's, or a custom rule naming commands the adapter lacks (the adapter is closed
 *   again); whatever `adapter.start` throws.
 */
export async function runFarmWorker(options: FarmWorkerOptions): Promise<FarmWorker> {
  if (!poolPattern.test(options.pool)) {
    throw new FarmError({ code: "INVALID_CONFIG", message: `Invalid pool name: ${options.pool}` });
  }
  const connection = toRedisOptions(options.redis, true);
  // ioredis and BullMQ type the same options differently under exactOptionalPropertyTypes.
  const bullConnection = connection as ConnectionOptions;
  const prefix = options.redis.prefix ?? "dcc";
  const name = queueName(options.pool);
  const adapter = options.adapter;
  const controller = new AbortController();
  let hostDown = false;
  let worker: Worker<FarmJobData, Envelope> | undefined;
  let closing: Promise<void> | undefined;
  const applyHostStatus = (): void => {
    if (worker === undefined || closing !== undefined) return;
    // Without waiting for the job that is running: it ends on its own (HOST_GONE, or its answer).
    if (hostDown) void worker.pause(true).catch(() => {});
    else if (worker.isPaused()) void worker.resume().catch(() => {});
  };
  const reportHost = (status: DccHostStatus): void => {
    hostDown = status.state === "unavailable";
    applyHostStatus();
    options.onHostStatus?.(status);
  };
  await withTimeout(
    Promise.resolve(adapter.start?.({ signal: controller.signal, reportHost })),
    options.startTimeoutMs ?? 60_000,
    () => controller.abort(),
  );
  // The same limits and approval rules for code jobs and materialized scripts' jobs.
  const shared = {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.approval === undefined
      ? {}
      : {
          approval: {
            ask: options.approval.ask,
            ...(options.approval.rules === undefined ? {} : { rules: options.approval.rules }),
          },
        }),
  };
  let executor: ReturnType<typeof createAdapterExecutor>;
  try {
    executor = createAdapterExecutor(adapter, shared);
  } catch (error) {
    // A rule that does not fit the adapter: the DCC just started is not left running.
    await Promise.allSettled([Promise.resolve(adapter.close?.())]);
    throw error;
  }
  // Materialized scripts' jobs bring their content; this worker writes it to a folder of its own
  // that exists only while such a job runs. A folder left by a killed worker is swept at start.
  await sweepScriptFolders();
  const scriptsRoot = join(tmpdir(), `${scriptFolderPrefix}${process.pid}-${randomUUID()}`);
  const scripts = new ScriptStore({ root: scriptsRoot });
  const scriptExecutor = createAdapterExecutor(adapter, {
    ...shared,
    scripts,
    pool: executor.pool,
  });
  // Sandbox workers start before the first job, not inside it, so the first job's lock is
  // renewed on time.
  await executor.pool.warmUp();
  // Cancel events for jobs this worker does not run, by job id (see the events listener below).
  const recentCancels = new Map<string, string>();
  const maxResultChars = Math.max(1000, options.maxResultChars ?? 24_000);
  const maxLogLines = Math.max(0, options.maxLogLines ?? 200);
  worker = new Worker<FarmJobData, Envelope>(
    name,
    async (job: Job<FarmJobData, Envelope>, token?: string, signal?: AbortSignal) => {
      if (hostDown) {
        // A worker paused while it was waiting for a job may still receive one: it goes back to
        // the queue for a worker whose host is up (or for this one, once its host is back).
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const startedAt = performance.now();
      return runTracedJob(
        name,
        String(job.id),
        job.data.trace,
        () =>
          runFarmJob(job, {
            executor,
            scriptExecutor,
            scripts,
            signal: signal ?? new AbortController().signal,
            // Asked before the job started: in its data when it was queued, else in an event heard
            // before this worker tracked the job (one heard after it aborts `signal`).
            cancelFlag: async () =>
              job.data.cancelReason ?? recentCancels.get(String(job.id)) ?? null,
            maxResultChars,
            maxLogLines,
          }),
        // Malformed data fails the job (runFarmJob says why) and is not put on the span.
        preapprovedProblem(job.data.preapproved) === undefined ? job.data.preapproved : undefined,
      )
        .then((result) => {
          try {
            options.onToolCall?.(
              jobEvent(String(job.id), job.data, result, performance.now() - startedAt),
            );
          } catch {
            // An observer's failure must never fail the job.
          }
          return result;
        })
        .finally(() =>
          // Only a script job wrote there.
          job.data.script === undefined
            ? undefined
            : rm(scriptsRoot, { recursive: true, force: true }),
        );
    },
    {
      connection: bullConnection,
      prefix,
      // Recorded on each job it takes (`processedBy`): which machine and process ran it.
      name: `${hostname()}:${process.pid}`,
      concurrency: 1,
      autorun: false,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 0,
    },
  );
  worker.on("error", () => {});
  // Every worker of the pool reads cancel events; only the one running the job acts on it. They
  // have a stream of their own: the queue's carries every job's events, which no worker needs.
  const events = new QueueEvents(cancelStreamName(options.pool), {
    connection: bullConnection,
    prefix,
  });
  events.on("error", () => {});
  events.on(
    cancelEvent as "error",
    ((event: { jobId?: string; reason?: string }) => {
      if (typeof event.jobId !== "string") return;
      const reason = event.reason ?? "Job cancelled";
      if (worker.cancelJob(event.jobId, reason)) return;
      // Not running here: kept a while, for the moment between taking a job and tracking it.
      recentCancels.set(event.jobId, reason);
      if (recentCancels.size > maxRecentCancels) {
        recentCancels.delete(recentCancels.keys().next().value as string);
      }
    }) as never,
  );
  await events.waitUntilReady();
  const running = worker;
  void running.run().catch(() => {});
  await running.waitUntilReady();
  applyHostStatus();

  return {
    pool: options.pool,
    close(): Promise<void> {
      closing ??= (async () => {
        running.cancelAllJobs("Worker is shutting down");
        await Promise.allSettled([running.close(), events.close()]);
        await Promise.allSettled([endClients(running), endClients(events)]);
        await Promise.allSettled([executor.close()]);
        await Promise.allSettled([Promise.resolve(adapter.close?.())]);
      })();
      return closing;
    },
  };
}

const scriptFolderPrefix = "dcc-farm-scripts-";
/** Cancels of jobs not running here that a worker remembers; the oldest are forgotten first. */
const maxRecentCancels = 1000;

/** Removes the script folders of farm workers that are gone (killed before they could). */
async function sweepScriptFolders(): Promise<void> {
  await sweepStaleFolders({
    parent: tmpdir(),
    prefix: scriptFolderPrefix,
    // The owner's pid is in the name: dcc-farm-scripts-<pid>-<uuid>.
    owners: (_path, name) => {
      const pid = Number(name.slice(scriptFolderPrefix.length).split("-")[0]);
      return Number.isInteger(pid) && pid > 0 ? [pid] : undefined;
    },
  });
}

async function withTimeout(
  work: Promise<unknown>,
  ms: number,
  onTimeout: () => void,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          onTimeout();
          reject(new Error(`The adapter did not start within ${ms} ms`));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
