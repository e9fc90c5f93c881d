// A dcc-farm-worker process that owns a real headless Blender, on a real redis-server: a job
// builds and saves a scene inside the worker's data folder; a cancel stops a spinning script and
// the worker takes the next job.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JobRecord } from "@dcc/mcp-bridge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil } from "./__fixtures__/mcp-client.ts";
import {
  redisAvailable,
  redisInstall,
  redisRequired,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { startWorker, type WorkerProcess } from "./__fixtures__/worker-process.ts";
import { createFarmJobQueue, type FarmJobQueue } from "./farm-job-queue.ts";

const blenderInstall = "apt-get install -y blender python3-numpy xvfb";
const hasBlender =
  spawnSync(process.env["BLENDER_BIN"] ?? "blender", ["--version"], { timeout: 60_000 }).status ===
  0;
const blenderRequired = process.env["DCC_REQUIRE_BLENDER"] === "1";
const missing = [
  ...(redisAvailable ? [] : [redisInstall]),
  ...(hasBlender ? [] : [blenderInstall]),
];
const required = (redisAvailable || redisRequired) && (hasBlender || blenderRequired);
const title =
  missing.length === 0
    ? "a farm worker that owns a real Blender"
    : `a farm worker that owns a real Blender (${required ? "required, but missing" : "skipped"}: ${missing.join("; ")})`;

const finished = (record: JobRecord | undefined) => record?.finishedAt !== undefined;

describe.skipIf(!required)(title, { timeout: 300_000 }, () => {
  let redis: TestRedis;
  let queue: FarmJobQueue;
  let worker: WorkerProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-farm-blender-"));

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`Missing: ${missing.join("; ")}`);
    redis = await startRedis();
    queue = createFarmJobQueue({ redis: { url: redis.url }, pools: ["blender"] });
    worker = await startWorker(redis.url, ["--dcc", "blender", "--data-dir", dataDir]);
  }, 300_000);

  afterAll(async () => {
    await worker?.stop();
    await queue?.close();
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  const submit = (code: string) =>
    queue.submit({ jobId: randomUUID(), dccName: "blender", code, timeoutSecs: 120 });

  it("runs a job in Blender and keeps its files in the worker's data folder", async () => {
    const record = await submit(`
      for (let i = 0; i < 3; i++) {
        dispatch("mesh.primitive_uv_sphere_add", { radius: 0.5, location: [i, 0, 0] });
        progress(i + 1, 3, "sphere");
      }
      dispatch("wm.save_as_mainfile", { filepath: "farm.blend" });
      return dispatch("data.list", { collection: "objects", options: { type: "MESH" } }).map((o) => o.name);`);
    const done = await pollUntil(() => queue.get(record.jobId), finished);
    expect(done).toMatchObject({
      status: "completed",
      progress: { progress: 3, total: 3 },
      result: { success: true },
    });
    expect(done?.result?.["output"]).toEqual(
      expect.arrayContaining(["Sphere", "Sphere.001", "Sphere.002"]),
    );
    expect(existsSync(join(dataDir, "farm.blend"))).toBe(true);
  });

  it("stops a spinning Blender job on cancel, then takes the next one", async () => {
    const spinning = await submit("for (;;) {}");
    await pollUntil(
      () => queue.get(spinning.jobId),
      (record) => record?.status === "running",
    );
    await queue.cancel(spinning.jobId, { reason: "stopped by the test", waitMs: 5000 });
    const stopped = await pollUntil(() => queue.get(spinning.jobId), finished);
    expect(stopped).toMatchObject({ status: "cancelled", result: { errorCode: "CANCELLED" } });
    const next = await submit('return dispatch("data.get", { path: "context.mode" });');
    const nextDone = await pollUntil(() => queue.get(next.jobId), finished);
    expect(nextDone).toMatchObject({ status: "completed", result: { output: "OBJECT" } });
  });
});
