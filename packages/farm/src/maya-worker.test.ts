// A dcc-farm-worker process that owns a real-Maya host (`--dcc maya --maya <mayapy>`), played by
// the stand-in `mayapy` of @dcc/maya's tests (not a licensed Maya), on a real redis-server: a job
// runs the seed's pattern there, and a delete runs only in a job that pre-approved it.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

// @dcc/maya's test support (the stand-in and the scene server behind it), loaded by URL: it is
// another package's test code, outside this package's sources.
const mayaPackage = new URL("../../maya/", import.meta.url);
const standInMayapy = fileURLToPath(new URL("python/tests/stand_in/bin/mayapy", mayaPackage));
const commandsData = fileURLToPath(new URL("../../../shared/data/maya-commands.json", mayaPackage));
interface StandInScene {
  readonly url: string;
  readonly calls: string[];
  close(): Promise<void>;
}
async function startStandInScene(options: { dataDir: string }): Promise<StandInScene> {
  const support = (await import(new URL("test/support/stand-in-scene.ts", mayaPackage).href)) as {
    startStandInScene(options: { dataDir: string }): Promise<StandInScene>;
  };
  return support.startStandInScene(options);
}

const required = redisAvailable || redisRequired;
const title = redisAvailable
  ? "a farm worker that owns a real-Maya host (stand-in mayapy)"
  : `a farm worker that owns a real-Maya host (${required ? "required, but missing" : "skipped"}: ${redisInstall})`;

const finished = (record: JobRecord | undefined) => record?.finishedAt !== undefined;

describe.skipIf(!required)(title, { timeout: 300_000 }, () => {
  let redis: TestRedis;
  let queue: FarmJobQueue;
  let worker: WorkerProcess | undefined;
  let scene: StandInScene;
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-farm-maya-"));

  beforeAll(async () => {
    if (!redisAvailable) throw new Error(`Missing: ${redisInstall}`);
    scene = await startStandInScene({ dataDir });
    // The worker, and the mayapy it launches, inherit these.
    process.env["DCC_MAYA_STAND_IN_SCENE"] = scene.url;
    process.env["DCC_MAYA_STAND_IN_COMMANDS"] = commandsData;
    // The stand-in mayapy is python3 through a version manager's shim, talking to a scene
    // server on loopback TCP: @dcc/link's OS sandbox would hide both.
    process.env["DCC_SANDBOX"] = "off";
    redis = await startRedis();
    queue = createFarmJobQueue({ redis: { url: redis.url }, pools: ["maya"] });
    worker = await startWorker(redis.url, [
      "--dcc",
      "maya",
      "--maya",
      standInMayapy,
      "--data-dir",
      dataDir,
      // A custom rule over Maya's delete: jobs may delete only when pre-approved.
      "--ask",
      "remove-nodes",
      "--ask-rule",
      "remove-nodes=delete",
    ]);
  }, 300_000);

  afterAll(async () => {
    await worker?.stop();
    await queue?.close();
    await redis?.stop();
    await scene?.close();
    delete process.env["DCC_MAYA_STAND_IN_SCENE"];
    delete process.env["DCC_MAYA_STAND_IN_COMMANDS"];
    delete process.env["DCC_SANDBOX"];
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it("runs the seed's pattern in the worker's Maya", async () => {
    const record = await queue.submit({
      jobId: randomUUID(),
      dccName: "maya",
      code: 'for (let i = 0; i < 5; i++) dispatch("polySphere", { position: [i, 0, 0] }); return dispatch("ls", { type: "transform" });',
      timeoutSecs: 120,
    });
    const done = await pollUntil(() => queue.get(record.jobId), finished);
    expect(done).toMatchObject({ status: "completed", result: { success: true } });
    expect(done?.result?.["output"]).toEqual([
      "pSphere1",
      "pSphere2",
      "pSphere3",
      "pSphere4",
      "pSphere5",
    ]);
    // The calls reached the Maya side through maya.cmds, not the in-process simulation.
    expect(scene.calls.filter((name) => name === "polySphere")).toHaveLength(5);
  });

  it("denies a delete the job did not pre-approve, and runs it when it did", async () => {
    const code = (name: string) =>
      `dispatch("polyCube", { name: "${name}" });
       let denied = null;
       try { dispatch("delete", "${name}"); } catch (e) { denied = [e.code, e.data.reason]; }
       return { denied, exists: dispatch("objExists", "${name}") };`;
    const run = async (name: string, preapproved?: string[]) => {
      const record = await queue.submit({
        jobId: randomUUID(),
        dccName: "maya",
        code: code(name),
        timeoutSecs: 120,
        ...(preapproved === undefined ? {} : { preapproved }),
      });
      return (await pollUntil(() => queue.get(record.jobId), finished))?.result;
    };
    const deletesBefore = scene.calls.filter((name) => name === "delete").length;
    expect(await run("keptCrate")).toMatchObject({
      success: true,
      output: { denied: ["APPROVAL_DENIED", "no-one-to-ask"], exists: true },
    });
    // The denied delete never reached the Maya side.
    expect(scene.calls.filter((name) => name === "delete")).toHaveLength(deletesBefore);
    expect(await run("goneCrate", ["remove-nodes"])).toMatchObject({
      success: true,
      output: { denied: null, exists: false },
      stats: {
        approvals: [expect.objectContaining({ rule: "remove-nodes", answer: "preapproved" })],
      },
    });
    expect(scene.calls.filter((name) => name === "delete")).toHaveLength(deletesBefore + 1);
  });
});
