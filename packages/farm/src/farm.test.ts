// End to end: real redis-server, real worker processes, real MCP servers over HTTP.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FarmServer, pollUntil, startFarmServer } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  freePort,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { startWorker, type WorkerProcess } from "./__fixtures__/worker-process.ts";
import { createFarmJobQueue } from "./farm-job-queue.ts";

type Status = Record<string, unknown> & { job?: { status?: string } };
const status = (server: FarmServer, jobId: string) =>
  server.execute({ job_id: jobId, job_action: "status" }) as Promise<Status>;
const finished = (value: Status) =>
  ["completed", "failed", "cancelled"].includes(String(value.job?.status));

describe.skipIf(!redisTestsRun)(redisTitle("farm on a real Redis"), { timeout: 300_000 }, () => {
  let redis: TestRedis;
  const workers: WorkerProcess[] = [];
  const servers: FarmServer[] = [];

  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
    workers.push(await startWorker(redis.url));
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled(servers.map((server) => server.close()));
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await redis?.stop();
  }, 120_000);

  it("runs an async job on a worker; a second server reads its status, logs and result", async () => {
    const first = await startFarmServer(redis.url);
    servers.push(first);
    const started = await first.execute({
      code: "console.log('making'); dispatch('polySphere', { name: 'ball' }); progress(1, 1, 'made'); return dispatch('ls', {});",
      async: true,
    });
    expect(started).toMatchObject({ success: true, status: "pending" });
    const jobId = started["job_id"] as string;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await startFarmServer(redis.url);
    servers.push(second);
    const done = await pollUntil(() => status(second, jobId), finished);
    expect(done).toMatchObject({
      job: {
        job_id: jobId,
        status: "completed",
        progress: { progress: 1, total: 1, message: "made" },
      },
    });
    const result = await second.execute({ job_id: jobId, job_action: "result" });
    expect(result).toMatchObject({ success: true, job: { status: "completed" } });
    expect(JSON.stringify(result["output"])).toContain("ball");
    const queue = new Queue("jobs-maya", {
      connection: { host: "127.0.0.1", port: redis.port },
      prefix: "dcc",
    });
    try {
      expect((await queue.getJobLogs(jobId)).logs).toEqual(["log: making"]);
    } finally {
      await queue.close();
    }
    // A client-made id never reaches a job.
    expect(await second.execute({ job_id: "../../x", job_action: "status" })).toMatchObject({
      errorCode: "JOB_NOT_FOUND",
    });
  });

  it("rolls back a failed job on its worker, as in the server's process, unless keep_partial", async () => {
    const server = await startFarmServer(redis.url);
    servers.push(server);
    const run = async (args: Record<string, unknown>) => {
      const started = await server.execute({ ...args, async: true });
      const jobId = started["job_id"] as string;
      await pollUntil(() => status(server, jobId), finished);
      return server.execute({ job_id: jobId, job_action: "result" });
    };
    const failed = await run({
      code: 'dispatch("polyCube", { name: "farmCube" }); throw new Error("late");',
    });
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(await run({ code: 'return dispatch("objExists", ["farmCube"]);' })).toMatchObject({
      success: true,
      output: false,
    });
    const kept = await run({
      code: 'dispatch("polyCube", { name: "farmKept" }); throw new Error("late");',
      keep_partial: true,
    });
    expect(kept).toMatchObject({ success: false, rollback: { rolledBack: false, reason: "kept" } });
    expect(await run({ code: 'return dispatch("objExists", ["farmKept"]);' })).toMatchObject({
      success: true,
      output: true,
    });
  });

  it("cancels a spinning script from another server; cancelled only once the worker stopped it", async () => {
    const first = await startFarmServer(redis.url);
    const second = await startFarmServer(redis.url);
    servers.push(first, second);
    const started = await first.execute({ code: "for (;;) {}", async: true, timeout_secs: 120 });
    const jobId = started["job_id"] as string;
    const running = await pollUntil(
      () => status(first, jobId),
      (value) => value.job?.status === "running",
    );
    expect(running.job?.status).toBe("running");
    const cancel = await second.execute({ job_id: jobId, job_action: "cancel" });
    const after = await pollUntil(() => status(first, jobId), finished);
    expect(after).toMatchObject({ job: { status: "cancelled", cancel_requested: true } });
    expect(["cancelled", "running"]).toContain((cancel["job"] as { status: string }).status);
    const result = await first.execute({ job_id: jobId, job_action: "result" });
    expect(result).toMatchObject({ success: false, errorCode: "CANCELLED" });
    // The worker is free again.
    const next = await first.execute({ code: "return 7;", async: true });
    const nextDone = await pollUntil(() => status(first, next["job_id"] as string), finished);
    expect(nextDone.job?.status).toBe("completed");
  });

  it("fails the job of a SIGKILLed worker with WORKER_LOST once another worker finds it", async () => {
    const pool = "killed";
    const server = await startFarmServer(redis.url, pool);
    servers.push(server);
    const doomed = await startWorker(redis.url, ["--pool", pool]);
    workers.push(doomed);
    const started = await server.execute({ code: "for (;;) {}", async: true, timeout_secs: 120 });
    const jobId = started["job_id"] as string;
    const running = await pollUntil(
      () => status(server, jobId),
      (value) => value.job?.status === "running",
    );
    expect(running.job?.status).toBe("running");
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    workers.push(await startWorker(redis.url, ["--pool", pool]));
    const after = await pollUntil(() => status(server, jobId), finished);
    expect(after.job?.status).toBe("failed");
    const result = await server.execute({ job_id: jobId, job_action: "result" });
    expect(result).toMatchObject({ success: false, errorCode: "WORKER_LOST" });
    expect(String(result["message"])).toContain("stopped (killed or lost)");
  });

  it("runs a materialized script's job on a worker that shares no folder with the server", async () => {
    const scriptsDir = mkdtempSync(join(tmpdir(), "dcc-farm-test-scripts-"));
    try {
      const server = await startFarmServer(redis.url, "maya", scriptsDir);
      servers.push(server);
      const stored = await server.execute({
        code: "function main(count: number, prefix: string) {\n  const made = [];\n  for (let i = 0; i < count; i++) made.push(dispatch('polySphere', { name: prefix + i })[0]);\n  return made;\n}",
      });
      const output = stored["output"] as { filePath: string; sha256: string };
      expect(output).toMatchObject({ materialized: true });
      const started = await server.execute({
        file_path: output.filePath,
        sha256: output.sha256,
        params: { count: 3, prefix: "farm" },
        async: true,
      });
      expect(started).toMatchObject({ success: true, status: "pending" });
      const jobId = started["job_id"] as string;
      const done = await pollUntil(() => status(server, jobId), finished);
      expect(done.job?.status).toBe("completed");
      const result = await server.execute({ job_id: jobId, job_action: "result" });
      expect(result).toMatchObject({
        success: true,
        output: ["farm0", "farm1", "farm2"],
        context: { materialized_script: { filePath: output.filePath, sha256: output.sha256 } },
      });
      // The worker kept the script only while the job ran.
      const pid = workers[0]?.child.pid;
      expect(
        readdirSync(tmpdir()).filter((name) => name.startsWith(`dcc-farm-scripts-${pid}-`)),
      ).toEqual([]);

      // The worker validates params against the schema of the body it received.
      const bad = await server.execute({
        file_path: output.filePath,
        params: { count: "three", prefix: "farm" },
        async: true,
      });
      const badDone = await pollUntil(() => status(server, bad["job_id"] as string), finished);
      expect(badDone.job?.status).toBe("failed");
      const badResult = await server.execute({
        job_id: bad["job_id"] as string,
        job_action: "result",
      });
      expect(badResult).toMatchObject({ success: false, errorCode: "INVALID_INPUT" });
      expect(String(badResult["error"])).toContain("count");

      // A wrong hash or a missing file is refused at submission, before anything is queued.
      expect(
        await server.execute({
          file_path: output.filePath,
          sha256: "0".repeat(64),
          params: { count: 1, prefix: "x" },
          async: true,
        }),
      ).toMatchObject({ success: false, errorCode: "INVALID_INPUT", completion: "not_started" });
      expect(
        await server.execute({ file_path: "maya/none.ts", params: {}, async: true }),
      ).toMatchObject({
        success: false,
        errorCode: "INVALID_INPUT",
        error: expect.stringContaining("not found"),
      });
    } finally {
      rmSync(scriptsDir, { recursive: true, force: true });
    }
  });

  it("is ready while Redis answers, and says which Redis does not, without its password", async () => {
    const up = createFarmJobQueue({ redis: { url: redis.url }, pools: ["maya"] });
    const down = createFarmJobQueue({
      redis: { url: `redis://127.0.0.1:${await freePort()}`, password: "s3cret-pass" },
      pools: ["maya"],
      commandTimeoutMs: 1000,
    });
    try {
      await expect(up.ready()).resolves.toBeUndefined();
      const error = await down.ready().then(
        () => undefined,
        (reason: unknown) => reason as Error,
      );
      expect(error).toMatchObject({ code: "REDIS_UNAVAILABLE" });
      expect(error?.message).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+/);
      expect(error?.message).not.toContain("s3cret-pass");
    } finally {
      await up.close();
      await down.close();
    }
    await expect(up.ready()).rejects.toMatchObject({ code: "REDIS_UNAVAILABLE" });
  });

  it("answers JOB_QUEUE_UNAVAILABLE when Redis is unreachable, and search keeps working", async () => {
    const server = await startFarmServer(`redis://127.0.0.1:${await freePort()}`);
    servers.push(server);
    const submitted = await server.execute({ code: "return 1;", async: true });
    expect(submitted).toMatchObject({ success: false, errorCode: "JOB_QUEUE_UNAVAILABLE" });
    expect(String(submitted["error"])).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+/);
    const polled = await server.execute({
      job_id: "00000000-0000-4000-8000-000000000000",
      job_action: "status",
    });
    expect(polled).toMatchObject({ errorCode: "JOB_QUEUE_UNAVAILABLE" });
    expect(await server.search("sphere")).toMatchObject({ success: true });
    expect(await server.execute({ code: "return 2;" })).toMatchObject({ success: true, output: 2 });
  });
});
