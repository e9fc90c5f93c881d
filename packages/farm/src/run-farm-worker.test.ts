// runFarmWorker in this process against a real redis-server: a worker whose host is unavailable
// leaves the pool's jobs to the others, and takes them again once its host is back.

import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DccApiCatalog } from "@dcc/catalog";
import type { DccAdapter, DccAdapterContext, DccHostStatus } from "@dcc/executor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { createFarmJobQueue, type FarmJobQueue } from "./farm-job-queue.ts";
import { type FarmWorker, runFarmWorker } from "./run-farm-worker.ts";

/** An adapter whose one command names it, and whose host status the test sets. */
function namedAdapter(name: string): DccAdapter & { report(status: DccHostStatus): void } {
  let context: DccAdapterContext | undefined;
  return {
    dccName: "maya",
    async start(given) {
      context = given;
    },
    commands: () => [{ name: "whoami", handler: () => name }],
    catalog: () => new DccApiCatalog("maya", { catalogText: "whoami - Name the worker" }),
    report(status) {
      context?.reportHost(status);
    },
  };
}

describe.skipIf(!redisTestsRun)(
  redisTitle("runFarmWorker and its host's status"),
  { timeout: 300_000 },
  () => {
    let redis: TestRedis;
    let queue: FarmJobQueue;
    const workers: FarmWorker[] = [];

    beforeAll(async () => {
      assertRedis();
      redis = await startRedis();
      queue = createFarmJobQueue({ redis: { url: redis.url }, pools: { maya: "hosts" } });
    }, 120_000);

    afterAll(async () => {
      await Promise.allSettled(workers.map((worker) => worker.close()));
      await queue?.close();
      await redis?.stop();
    }, 120_000);

    const runJob = async (): Promise<unknown> => {
      const record = await queue.submit({
        jobId: randomUUID(),
        dccName: "maya",
        code: 'return dispatch("whoami", {});',
      });
      const done = await pollUntil(
        () => queue.get(record.jobId),
        (value) => value?.finishedAt !== undefined,
      );
      expect(done).toMatchObject({ status: "completed" });
      return done?.result?.["output"];
    };

    it("takes no jobs while its host is unavailable, and takes them again once it is ready", async () => {
      const downAdapter = namedAdapter("down");
      const heard: DccHostStatus[] = [];
      const down = await runFarmWorker({
        redis: { url: redis.url },
        pool: "hosts",
        adapter: downAdapter,
        onHostStatus: (status) => heard.push(status),
      });
      workers.push(down);
      downAdapter.report({ state: "unavailable", reason: "Maya exited; restarting" });
      expect(heard).toEqual([{ state: "unavailable", reason: "Maya exited; restarting" }]);

      const up = await runFarmWorker({
        redis: { url: redis.url },
        pool: "hosts",
        adapter: namedAdapter("up"),
      });
      workers.push(up);
      const names: unknown[] = [];
      for (let i = 0; i < 6; i++) names.push(await runJob());
      expect(names).toEqual(Array(6).fill("up"));

      // The healthy worker leaves; the other one's host comes back.
      await up.close();
      downAdapter.report({ state: "ready" });
      expect(await runJob()).toBe("down");
    });

    it("never runs a job cancelled while it was queued; the worker that takes it reports it cancelled", async () => {
      const pooled = createFarmJobQueue({ redis: { url: redis.url }, pools: { maya: "queued" } });
      try {
        const ran: string[] = [];
        const adapter: DccAdapter = {
          dccName: "maya",
          commands: () => [{ name: "mark", handler: () => ran.push("ran") }],
          catalog: () => new DccApiCatalog("maya", { catalogText: "mark - Note a run" }),
        };
        const cancelled = await pooled.submit({
          jobId: randomUUID(),
          dccName: "maya",
          code: 'return dispatch("mark", {});',
        });
        // No worker serves the pool yet: the job waits in the queue.
        expect(
          await pooled.cancel(cancelled.jobId, { reason: "changed my mind", waitMs: 0 }),
        ).toMatchObject({
          status: "pending",
          cancelRequested: true,
        });
        const worker = await runFarmWorker({ redis: { url: redis.url }, pool: "queued", adapter });
        workers.push(worker);
        const done = await pollUntil(
          () => pooled.get(cancelled.jobId),
          (value) => value?.finishedAt !== undefined,
        );
        expect(done).toMatchObject({
          status: "cancelled",
          result: { errorCode: "CANCELLED", completion: "not_started", error: "changed my mind" },
        });
        expect(ran).toEqual([]);
        // The worker goes on with the next job.
        const next = await pooled.submit({
          jobId: randomUUID(),
          dccName: "maya",
          code: 'return dispatch("mark", {});',
        });
        const after = await pollUntil(
          () => pooled.get(next.jobId),
          (value) => value?.finishedAt !== undefined,
        );
        expect(after).toMatchObject({ status: "completed" });
        expect(ran).toEqual(["ran"]);
      } finally {
        await pooled.close();
      }
    });

    it("removes at start the script folders of workers that were killed", async () => {
      // The pid of a process that has exited, as a SIGKILLed worker's would be.
      const gone = spawnSync(process.execPath, ["-e", ""]).pid;
      const left = join(tmpdir(), `dcc-farm-scripts-${gone}-${randomUUID()}`);
      mkdirSync(join(left, "maya"), { recursive: true });
      writeFileSync(join(left, "maya", "script.ts"), "function main() {}\n");
      const mine = join(tmpdir(), `dcc-farm-scripts-${process.pid}-${randomUUID()}`);
      mkdirSync(mine);
      try {
        const worker = await runFarmWorker({
          redis: { url: redis.url },
          pool: "sweep",
          adapter: namedAdapter("sweeper"),
        });
        workers.push(worker);
        expect(existsSync(left)).toBe(false);
        // A live process's folder is left alone.
        expect(existsSync(mine)).toBe(true);
      } finally {
        rmSync(mine, { recursive: true, force: true });
        rmSync(left, { recursive: true, force: true });
      }
    });
  },
);
