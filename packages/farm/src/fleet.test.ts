// The farm as a studio runs it: one MCP server, three worker processes, 50 mixed jobs. A worker is
// SIGKILLed mid-job, the server is replaced by a new one while jobs run, a spinning job is
// cancelled; every job must end in the state its script calls for, each run exactly once.
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FarmServer, pollUntil, startFarmServer } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { startWorker, type WorkerProcess } from "./__fixtures__/worker-process.ts";

const pool = "fleet";

type Status = Record<string, unknown> & { job?: { status?: string } };
type Expected =
  | { kind: "ok"; output: unknown }
  | { kind: "fails"; error: string }
  | { kind: "victim" }
  | { kind: "spinner" };

const finalStates = ["completed", "failed", "cancelled"];

describe.skipIf(!redisTestsRun)(redisTitle("a farm fleet"), { timeout: 600_000 }, () => {
  let redis: TestRedis;
  let queue: Queue;
  const workers: WorkerProcess[] = [];
  const servers: FarmServer[] = [];

  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
    queue = new Queue(`jobs-${pool}`, {
      connection: { host: "127.0.0.1", port: redis.port },
      prefix: "dcc",
    });
    for (let i = 0; i < 3; i++) workers.push(await startWorker(redis.url, ["--pool", pool]));
  }, 600_000);

  afterAll(async () => {
    await Promise.allSettled(servers.map((server) => server.close()));
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await queue?.close();
    await redis?.stop();
  }, 120_000);

  it("ends every job right through a worker's death, a server restart and a cancel", async () => {
    let server = await startFarmServer(redis.url, pool);
    servers.push(server);
    const expected = new Map<string, Expected>();
    const submit = async (code: string, expectation: Expected): Promise<string> => {
      const started = await server.execute({ code, async: true, timeout_secs: 300 });
      expect(started).toMatchObject({ success: true, status: "pending" });
      const jobId = started["job_id"] as string;
      expected.set(jobId, expectation);
      return jobId;
    };
    const status = (jobId: string) =>
      server.execute({ job_id: jobId, job_action: "status" }) as Promise<Status>;

    // Two long jobs first, so each holds a worker: one whose worker is killed, one to cancel.
    const victim = await submit("progress(0, 1, 'holding'); for (;;) {}", { kind: "victim" });
    const spinner = await submit("for (;;) {}", { kind: "spinner" });
    for (let i = 0; i < 48; i++) {
      if (i % 8 === 7) {
        await submit(`throw new Error("bad input ${i}");`, {
          kind: "fails",
          error: `bad input ${i}`,
        });
      } else {
        // A little work each, so jobs are still running when the server is replaced.
        await submit(
          `const until = Date.now() + ${20 + (i % 5) * 30}; while (Date.now() < until) {}
           const made = dispatch("polySphere", { name: "ball${i}" });
           return { i: ${i}, made: made[0] };`,
          { kind: "ok", output: { i, made: `ball${i}` } },
        );
      }
    }
    expect(expected.size).toBe(50);

    const running = (jobId: string) =>
      pollUntil(
        () => status(jobId),
        (value) => value.job?.status === "running",
      );
    expect((await running(victim)).job?.status).toBe("running");
    expect((await running(spinner)).job?.status).toBe("running");

    // Kill the worker that runs the victim, whichever it is.
    const processedBy = (await queue.getJob(victim))?.processedBy ?? "";
    const pid = Number(processedBy.split(":").at(-1));
    const doomed = workers.find((worker) => worker.child.pid === pid);
    expect(doomed, `no worker has pid ${pid} (${processedBy})`).toBeDefined();
    doomed?.child.kill("SIGKILL");
    await doomed?.exited;

    // Replace the server while the short jobs run: the new one answers for every job.
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    server = await startFarmServer(redis.url, pool);
    servers.push(server);

    const cancel = await server.execute({ job_id: spinner, job_action: "cancel" });
    expect(cancel).toMatchObject({ success: true });

    for (const [jobId, expectation] of expected) {
      const done = await pollUntil(
        () => status(jobId),
        (value) => finalStates.includes(String(value.job?.status)),
        240_000,
      );
      const result = await server.execute({ job_id: jobId, job_action: "result" });
      switch (expectation.kind) {
        case "ok":
          expect(done.job?.status, jobId).toBe("completed");
          expect(result, jobId).toMatchObject({ success: true, output: expectation.output });
          break;
        case "fails":
          expect(done.job?.status, jobId).toBe("failed");
          expect(result, jobId).toMatchObject({ success: false });
          expect(String(result["error"]), jobId).toContain(expectation.error);
          break;
        case "victim":
          expect(done.job?.status).toBe("failed");
          expect(result).toMatchObject({ success: false, errorCode: "WORKER_LOST" });
          break;
        case "spinner":
          expect(done.job?.status).toBe("cancelled");
          expect(result).toMatchObject({ success: false, errorCode: "CANCELLED" });
          break;
      }
      // Run once: no job was started twice, not even the one whose worker died.
      // (The victim's script spins forever: had it run again, it could not have failed.)
      if (expectation.kind !== "victim") {
        expect((await queue.getJob(jobId))?.attemptsStarted, jobId).toBe(1);
      }
    }
    const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
    expect(counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 49, failed: 1 });
  });
});
