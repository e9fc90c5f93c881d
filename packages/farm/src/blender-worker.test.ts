// A dcc-farm-worker process that owns a real headless Blender, on a real redis-server: a job
// builds and saves a scene inside the worker's data folder; a cancel stops a spinning script and
// the worker takes the next job.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dccSandboxSupport } from "@dcc/link";
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

/** Whether the worker's Blender must run sandboxed: where bwrap runs, or CI requires it. */
const sandboxed = (await dccSandboxSupport()).available || process.env["DCC_REQUIRE_BWRAP"] === "1";

const finished = (record: JobRecord | undefined) => record?.finishedAt !== undefined;

/** The descendants of `pid` with their command names, from /proc. */
function descendants(pid: number): { pid: number; name: string }[] {
  const parents = new Map<number, { ppid: number; name: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), { ppid, name });
    } catch {
      // exited meanwhile
    }
  }
  const found: { pid: number; name: string }[] = [];
  const walk = (parent: number): void => {
    for (const [child, { ppid, name }] of parents) {
      if (ppid !== parent) continue;
      found.push({ pid: child, name });
      walk(child);
    }
  };
  walk(pid);
  return found;
}

describe.skipIf(!required)(title, { timeout: 300_000 }, () => {
  let redis: TestRedis;
  let queue: FarmJobQueue;
  let worker: WorkerProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-farm-blender-"));

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`Missing: ${missing.join("; ")}`);
    redis = await startRedis();
    queue = createFarmJobQueue({ redis: { url: redis.url }, pools: ["blender"] });
    // "on" where bwrap runs or CI requires it: the worker then fails to start without it.
    worker = await startWorker(redis.url, [
      "--dcc",
      "blender",
      "--data-dir",
      dataDir,
      "--sandbox",
      sandboxed ? "on" : "auto",
    ]);
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

  it.runIf(sandboxed)("runs its Blender inside the OS sandbox (bwrap)", () => {
    const tree = descendants(worker?.child.pid as number);
    const bwrap = tree.find((entry) => entry.name === "bwrap");
    expect(bwrap).toBeDefined();
    const inside = new Set(descendants(bwrap?.pid as number).map((entry) => entry.pid));
    const blenders = tree.filter((entry) => entry.name === "blender");
    expect(blenders.length).toBeGreaterThan(0);
    expect(blenders.filter((entry) => !inside.has(entry.pid))).toEqual([]);
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
