import { preapprovedProblem, ScriptStore } from "@dcc/executor";
import type {
  JobQueue,
  JobQueueCancelOptions,
  JobQueueSubmission,
  JobRecord,
} from "@dcc/mcp-bridge";
import { type ConnectionOptions, Queue, QueueEventsProducer } from "bullmq";
import { Redis } from "ioredis";
import { FarmError } from "./farm-error.ts";
import type { FarmRedisOptions } from "./farm-redis-options.ts";
import {
  cancelEvent,
  cancelKey,
  cancelStreamName,
  type FarmJobData,
  jobIdPattern,
  poolPattern,
  queueName,
} from "./internal/farm-keys.ts";
import { storedJob, toJobRecord } from "./internal/job-record.ts";
import { startSubmitTrace } from "./internal/job-trace.ts";
import { bounded, describeRedis, endClients, toRedisOptions } from "./internal/redis-connection.ts";

/** Options for {@link createFarmJobQueue}. */
export interface FarmJobQueueOptions {
  /** The farm's Redis, from host configuration. */
  redis: FarmRedisOptions;
  /**
   * The pools this server submits to: a list of DCC names (each its own pool), or a map from the
   * DCC name the server uses (its adapter's instance name) to a pool name.
   */
  pools: readonly string[] | Readonly<Record<string, string>>;
  /** How long a finished job's record and result stay readable, in seconds. Default 3600. */
  retentionSecs?: number;
  /** Longest wait for one Redis round trip before `REDIS_UNAVAILABLE`, in ms. Default 5000. */
  commandTimeoutMs?: number;
  /**
   * The server's materialized scripts: the same store (or root) as its executor's `scripts`. A
   * `file_path` job is read from it, verified (confinement, expiry, `sha256`) and sent with its
   * content and hash, so workers need no shared folder. Without it, `file_path` jobs are refused.
   */
  scripts?: ScriptStore | string;
}

/** A {@link JobQueue} on BullMQ; close it after the servers that use it. */
export interface FarmJobQueue extends JobQueue {
  /**
   * Resolves when Redis answers a `PING` within `commandTimeoutMs`, else rejects with
   * {@link FarmError} `REDIS_UNAVAILABLE` naming the address (never the password).
   */
  ready(): Promise<void>;
  /** The pool each DCC name submits to. */
  readonly pools: Readonly<Record<string, string>>;
  /**
   * How many jobs each pool's queue holds, by BullMQ state, read within `commandTimeoutMs`
   * (finished jobs count until `retentionSecs` removes them). Rejects with {@link FarmError}
   * `REDIS_UNAVAILABLE` when Redis does not answer.
   */
  counts(): Promise<Record<string, Record<FarmJobState, number>>>;
  /** Closes the Redis connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * A job's state in its BullMQ queue: `waiting` (also `prioritized`, `delayed`) for a worker,
 * `active` on one, `completed` (its script's envelope is its result: success, a script error or a
 * cancel) or `failed` (the worker was lost, or the job could not run).
 */
export type FarmJobState =
  | "waiting"
  | "prioritized"
  | "delayed"
  | "active"
  | "completed"
  | "failed";

/** Every {@link FarmJobState}, in the order a job goes through them. */
export const farmJobStates: readonly FarmJobState[] = [
  "waiting",
  "prioritized",
  "delayed",
  "active",
  "completed",
  "failed",
];

interface PoolQueue {
  pool: string;
  queue: Queue<FarmJobData, NonNullable<JobRecord["result"]>>;
  events: QueueEventsProducer;
}

/**
 * The server side of a farm: async `dcc_execute` jobs go to a BullMQ queue per pool (`maya`,
 * `blender`, …) in Redis, where `dcc-farm-worker` processes take them one at a time. Pass it as
 * the server's `jobQueue`. Nothing connects until the first call.
 * @throws {@link FarmError} `INVALID_CONFIG` for a bad URL or pool name.
 */
export function createFarmJobQueue(options: FarmJobQueueOptions): FarmJobQueue {
  const pools: Record<string, string> = Array.isArray(options.pools)
    ? Object.fromEntries((options.pools as readonly string[]).map((name) => [name, name]))
    : { ...(options.pools as Readonly<Record<string, string>>) };
  if (Object.keys(pools).length === 0) {
    throw new FarmError({ code: "INVALID_CONFIG", message: "Name at least one pool" });
  }
  for (const pool of Object.values(pools)) {
    if (!poolPattern.test(pool)) {
      throw new FarmError({ code: "INVALID_CONFIG", message: `Invalid pool name: ${pool}` });
    }
  }
  const prefix = options.redis.prefix ?? "dcc";
  const connection = toRedisOptions(options.redis, false);
  // ioredis and BullMQ type the same options differently under exactOptionalPropertyTypes.
  const bullConnection = connection as ConnectionOptions;
  const where = describeRedis(options.redis);
  const ms = Math.max(100, options.commandTimeoutMs ?? 5000);
  const retentionSecs = Math.max(1, Math.floor(options.retentionSecs ?? 3600));
  const scripts =
    typeof options.scripts === "string"
      ? new ScriptStore({ root: options.scripts })
      : options.scripts;
  const byPool = new Map<string, PoolQueue>();
  let flags: Redis | undefined;
  let closed = false;

  const open = (pool: string): PoolQueue => {
    if (closed)
      throw new FarmError({ code: "REDIS_UNAVAILABLE", message: "The farm queue is closed" });
    const existing = byPool.get(pool);
    if (existing !== undefined) return existing;
    {
      const queue = new Queue<FarmJobData, NonNullable<JobRecord["result"]>>(queueName(pool), {
        connection: bullConnection,
        prefix,
      });
      const events = new QueueEventsProducer(cancelStreamName(pool), {
        connection: bullConnection,
        prefix,
      });
      // Connection errors surface as rejected calls; the emitter must not crash the process.
      queue.on("error", () => {});
      events.on("error", () => {});
      const entry: PoolQueue = { pool, queue, events };
      byPool.set(pool, entry);
      return entry;
    }
  };
  const flagClient = (): Redis => {
    if (flags === undefined) {
      // Its own commands wait for the connection (each call is bounded by `bounded`).
      flags = new Redis({ ...connection, enableOfflineQueue: true });
      flags.on("error", () => {});
    }
    return flags;
  };
  const find = async (jobId: string) => {
    for (const pool of new Set(Object.values(pools))) {
      const { queue } = open(pool);
      const job = await queue.getJob(jobId);
      if (job !== undefined) return { pool, job };
    }
    return undefined;
  };
  /**
   * One job's record in one round trip: its hash, whether it is finished or active, and its cancel
   * flag, for every pool at once, read atomically (a job that finishes meanwhile is read either
   * before or after, never half). Polling a running job costs one `MULTI` this way, where reading
   * the job, then its state, then the flag took three to four round trips.
   */
  const read = async (jobId: string): Promise<JobRecord | undefined> => {
    if (!jobIdPattern.test(jobId)) return undefined;
    const all = [...new Set(Object.values(pools))];
    const batch = flagClient().multi();
    for (const pool of all) {
      const { queue } = open(pool);
      batch
        .hgetall(queue.toKey(jobId))
        .zscore(queue.toKey("completed"), jobId)
        .zscore(queue.toKey("failed"), jobId)
        // The active list holds one entry per busy worker (LRANGE: LPOS needs Redis 6.0.6).
        .lrange(queue.toKey("active"), 0, -1)
        .exists(cancelKey(prefix, pool, jobId));
    }
    const replies = await batch.exec();
    if (replies === null) throw new Error("The job read was aborted");
    for (let index = 0; index < all.length; index++) {
      const [hash, completed, failed, active, flag] = replies
        .slice(index * 5, index * 5 + 5)
        .map(([error, value]) => {
          if (error !== null) throw error;
          return value;
        });
      const job = storedJob(jobId, hash as Record<string, string>);
      if (job === undefined) continue;
      const state =
        completed !== null
          ? "completed"
          : failed !== null
            ? "failed"
            : (active as string[]).includes(jobId)
              ? "active"
              : "waiting";
      const record = toJobRecord(job, state, flag === 1);
      // BullMQ trims old finished jobs lazily; past the retention a record is gone all the same.
      if (
        record.finishedAt !== undefined &&
        record.finishedAt < Date.now() - retentionSecs * 1000
      ) {
        return undefined;
      }
      return record;
    }
    return undefined;
  };

  return {
    pools,
    submit(submission: JobQueueSubmission): Promise<JobRecord> {
      const pool = pools[submission.dccName];
      if (pool === undefined) {
        return Promise.reject(
          new FarmError({
            code: "INVALID_CONFIG",
            message: `No farm pool is configured for ${submission.dccName}`,
          }),
        );
      }
      if (!jobIdPattern.test(submission.jobId)) {
        return Promise.reject(
          new FarmError({ code: "INVALID_CONFIG", message: "Job ids are UUIDs" }),
        );
      }
      const problem = preapprovedProblem(submission.preapproved);
      if (problem !== undefined) {
        return Promise.reject(new FarmError({ code: "INVALID_SUBMISSION", message: problem }));
      }
      const { jobId, preapproved, ...fields } = submission;
      return (async () => {
        const data: FarmJobData = {
          ...fields,
          // Each rule once, as the worker passes them to the executor.
          ...(preapproved === undefined ? {} : { preapproved: [...new Set(preapproved)] }),
        };
        if (submission.filePath !== undefined) {
          if (scripts === undefined) {
            throw new FarmError({
              code: "INVALID_CONFIG",
              message:
                "This server's farm queue has no scripts store, so it cannot send file_path jobs",
            });
          }
          // Script errors (not found, outside the root, expired, hash mismatch) reach the client
          // as invalid input.
          const script = await scripts.resolve(
            submission.filePath,
            submission.sha256 === undefined ? {} : { sha256: submission.sha256 },
          );
          data.filePath = script.filePath;
          data.script = { content: script.code, sha256: script.sha256 };
        }
        const traced = startSubmitTrace(queueName(pool), jobId);
        if (traced.carrier !== undefined) data.trace = traced.carrier;
        try {
          const record = await bounded(
            async () => {
              const job = await open(pool).queue.add("script", data, {
                jobId,
                attempts: 1,
                removeOnComplete: { age: retentionSecs },
                removeOnFail: { age: retentionSecs },
              });
              return toJobRecord(job, "waiting", false);
            },
            ms,
            where,
          );
          traced.end();
          return record;
        } catch (error) {
          traced.end(error);
          throw error;
        }
      })();
    },
    get(jobId: string): Promise<JobRecord | undefined> {
      return bounded(() => read(jobId), ms, where);
    },
    async cancel(jobId: string, cancel: JobQueueCancelOptions): Promise<JobRecord | undefined> {
      if (!jobIdPattern.test(jobId)) return undefined;
      const found = await bounded(() => find(jobId), ms, where);
      if (found === undefined) return undefined;
      const key = cancelKey(prefix, found.pool, jobId);
      await bounded(
        async () => {
          // The flag marks the record; the reason in the job's data reaches the worker that takes
          // a queued job (with the job itself), and the event the worker that has it, in this
          // order, so a worker that took the job before the data changed hears the event.
          await flagClient().set(key, cancel.reason.slice(0, 500), "EX", retentionSecs);
          if (found.job.finishedOn === undefined) {
            await found.job
              .updateData({ ...found.job.data, cancelReason: cancel.reason.slice(0, 500) })
              // Gone meanwhile (finished and trimmed): nothing is left to stop.
              .catch(() => {});
          }
          await open(found.pool).events.publishEvent({
            eventName: cancelEvent,
            jobId,
            reason: cancel.reason.slice(0, 500),
          });
        },
        ms,
        where,
      );
      const deadline = Date.now() + Math.max(0, cancel.waitMs);
      for (;;) {
        const record = await bounded(() => read(jobId), ms, where);
        if (record === undefined || record.status !== "running" || Date.now() >= deadline) {
          return record;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async counts(): Promise<Record<string, Record<FarmJobState, number>>> {
      const all = [...new Set(Object.values(pools))];
      const entries = await bounded(
        () =>
          Promise.all(
            all.map(async (pool) => {
              const found = await open(pool).queue.getJobCounts(...farmJobStates);
              const counts = Object.fromEntries(
                farmJobStates.map((state) => [state, found[state] ?? 0]),
              ) as Record<FarmJobState, number>;
              return [pool, counts] as const;
            }),
          ),
        ms,
        where,
      );
      return Object.fromEntries(entries);
    },
    async ready(): Promise<void> {
      if (closed)
        throw new FarmError({ code: "REDIS_UNAVAILABLE", message: "The farm queue is closed" });
      await bounded(async () => void (await flagClient().ping()), ms, where);
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const all = [...byPool.values()];
      await Promise.allSettled(all.flatMap(({ queue, events }) => [queue.close(), events.close()]));
      await Promise.allSettled(
        all.flatMap(({ queue, events }) => [endClients(queue), endClients(events)]),
      );
      flags?.disconnect();
    },
  };
}
