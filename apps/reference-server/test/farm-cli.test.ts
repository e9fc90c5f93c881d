// The reference server as a farm's front end: its CLI with --farm, two dcc-farm-worker processes
// and a real redis-server. Scripts run on the workers; the server starts no DCC of its own.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  assertBlender,
  blenderInstallCommand,
  commandLineOf,
  descendantsOf,
  hasBlender,
  requireBlender,
} from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer } from "../src/index.ts";
import {
  type CliProcess,
  connectHttp,
  execute,
  search,
  spawnCli,
  startupUrl,
  stopCli,
  until,
} from "./__fixtures__/mcp-helpers.ts";

// @dcc/farm's test support (redis-server and worker processes) and @dcc/maya's stand-in mayapy,
// loaded by URL: other packages' test code, outside this app's sources.
const farmPackage = new URL("../../../packages/farm/", import.meta.url);
const standInMayapy = fileURLToPath(
  new URL("../../../packages/maya/python/tests/stand_in/bin/mayapy", import.meta.url),
);
interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}
interface WorkerProcess {
  child: { pid?: number | undefined };
  stop(): Promise<void>;
}
const redisSupport = (await import(
  new URL("src/__fixtures__/redis-server.ts", farmPackage).href
)) as {
  redisAvailable: boolean;
  redisRequired: boolean;
  redisInstall: string;
  startRedis(options?: { password?: string }): Promise<TestRedis>;
  freePort(): Promise<number>;
};
const workerSupport = (await import(
  new URL("src/__fixtures__/worker-process.ts", farmPackage).href
)) as {
  startWorker(
    redisUrl: string,
    extra?: string[],
    env?: Record<string, string>,
  ): Promise<WorkerProcess>;
};

const runs = redisSupport.redisAvailable || redisSupport.redisRequired;
const title = (name: string): string =>
  redisSupport.redisAvailable
    ? name
    : `${name} (${runs ? "required, but missing" : "skipped"}: ${redisSupport.redisInstall})`;

const execFileText = promisify(execFile);

/** One redis-cli command against `redis`, its answer trimmed. */
async function redisCli(redis: TestRedis, ...args: string[]): Promise<string> {
  const { stdout } = await execFileText("redis-cli", ["-p", String(redis.port), ...args], {
    timeout: 30_000,
  });
  return stdout.trim();
}

describe.skipIf(!runs)(
  title("the reference server's CLI in front of a farm"),
  { timeout: 600_000 },
  () => {
    let redis: TestRedis;
    const workers: WorkerProcess[] = [];
    const clis: CliProcess[] = [];
    const folders: string[] = [];
    const folder = (): string => {
      const made = mkdtempSync(join(tmpdir(), "dcc-farm-cli-"));
      folders.push(made);
      return made;
    };
    const startFrontEnd = (args: string[], env: Record<string, string> = {}): CliProcess => {
      const cli = spawnCli(
        ["--port", "0", "--data-dir", folder(), "--scripts-dir", folder(), ...args],
        env,
      );
      clis.push(cli);
      return cli;
    };

    beforeAll(async () => {
      if (!redisSupport.redisAvailable) throw new Error(`Missing: ${redisSupport.redisInstall}`);
      redis = await redisSupport.startRedis();
      // Two simulated-Maya workers of the maya pool, each its own process and scene.
      workers.push(await workerSupport.startWorker(redis.url));
      workers.push(await workerSupport.startWorker(redis.url));
    }, 600_000);

    afterAll(async () => {
      await Promise.allSettled(clis.map((cli) => stopCli(cli, "SIGKILL")));
      await Promise.allSettled(workers.map((worker) => worker.stop()));
      await redis?.stop();
      for (const made of folders) rmSync(made, { recursive: true, force: true });
    }, 120_000);

    it("runs an async job on a worker, and synchronous scripts too, while the server starts no Maya", async () => {
      // A real-Maya front end: were it to start its Maya, the stand-in mayapy would be its child.
      const cli = startFrontEnd(["--farm", redis.url, "--dcc", "maya", "--maya", standInMayapy]);
      const url = await startupUrl(cli);
      expect(cli.stderr()).toContain(
        "(Maya (mayapy), catalog only: scripts run on the farm) ready",
      );
      const client = await connectHttp(url);
      try {
        expect((await search(client, "polySphere")).results.map((hit) => hit.name)).toContain(
          "polySphere",
        );
        const started = await execute(
          client,
          "dispatch('polySphere', { name: 'ball' }); return dispatch('ls', {});",
          {
            async: true,
          },
        );
        expect(started).toMatchObject({ success: true, status: "pending" });
        const jobId = started["job_id"] as string;
        let done: Record<string, unknown> = {};
        await until(async () => {
          const answer = await client.callTool({
            name: "dcc_execute",
            arguments: { job_id: jobId, job_action: "result" },
          });
          done = answer.structuredContent as Record<string, unknown>;
          return (done["job"] as { status?: string } | undefined)?.status === "completed";
        }, 240_000);
        expect(JSON.stringify(done)).toContain("ball");
        // BullMQ's record of the job names the worker that ran it (processedBy, stored as pb):
        // <host>:<pid>.
        const processedBy = await redisCli(redis, "HGET", `dcc:jobs-maya:${jobId}`, "pb");
        const workerPids = workers.map((worker) => worker.child.pid);
        expect(workerPids).toContain(Number(processedBy.split(":").at(-1)));

        // Without async the script runs on a worker all the same (here it would be refused:
        // the server's Maya is catalog-only) and the call waits for its result.
        expect(
          await execute(
            client,
            "dispatch('polyCube', { name: 'box' }); return dispatch('ls', {});",
          ),
        ).toMatchObject({ success: true, output: expect.arrayContaining(["box"]) });

        // A cancelled synchronous call cancels its job on the worker.
        const abort = new AbortController();
        const spinning = execute(
          client,
          "for (;;) {}",
          { timeout_secs: 300 },
          { signal: abort.signal },
        );
        spinning.catch(() => {});
        await until(
          async () => (await redisCli(redis, "LLEN", "dcc:jobs-maya:active")) === "1",
          240_000,
        );
        abort.abort();
        await until(async () => {
          const keys = (await redisCli(redis, "--scan", "--pattern", "dcc:jobs-maya:*"))
            .split("\n")
            .filter((key) => /:[0-9a-f-]{36}$/.test(key));
          for (const key of keys) {
            if ((await redisCli(redis, "HGET", key, "returnvalue")).includes('"CANCELLED"'))
              return true;
          }
          return false;
        }, 240_000);

        // The server runs no process of its own: no Maya (nor any other host) below it.
        const pid = cli.child.pid as number;
        // Only tsx's esbuild service may be there, compiling the sources this test runs from.
        const below = descendantsOf(pid).map(commandLineOf);
        expect(below.filter((line) => !/\/esbuild --service=/.test(line))).toEqual([]);
        const ready = await fetch(new URL("/readyz", url));
        expect(ready.status).toBe(200);
        // Its jobs live in Redis: /metrics counts them there (async, synchronous and cancelled
        // ones all ended with an envelope, which BullMQ calls completed).
        const metrics = await (await fetch(new URL("/metrics", url))).text();
        expect(metrics).toMatch(/^dcc_farm_queue_up 1$/m);
        const completed = /^dcc_farm_jobs\{pool="maya",state="completed"\} (\d+)$/m.exec(metrics);
        expect(Number(completed?.[1])).toBeGreaterThanOrEqual(3);
        expect(metrics).toMatch(/^dcc_farm_jobs\{pool="maya",state="active"\} 0$/m);
      } finally {
        await client.close();
      }
      expect(await stopCli(cli, "SIGTERM")).toBe(0);
    });

    it("closes the farm queue's Redis connections with the server", async () => {
      // A Redis of its own: no worker, so the only other client is redis-cli itself.
      const own = await redisSupport.startRedis();
      try {
        const clients = async (): Promise<number> =>
          (await redisCli(own, "CLIENT", "LIST")).split("\n").filter((line) => line !== "").length;
        expect(await clients()).toBe(1);
        const server = await createReferenceServer({
          port: 0,
          dataDir: folder(),
          scriptsDir: folder(),
          farm: { url: own.url },
        });
        const client = await connectHttp(server.url as string);
        try {
          expect(await execute(client, "return 1;", { async: true })).toMatchObject({
            success: true,
            status: "pending",
          });
          expect((await fetch(new URL("/readyz", server.url))).status).toBe(200);
          expect(await clients()).toBeGreaterThan(1);
        } finally {
          await client.close();
        }
        await server.close();
        // Redis drops a connection once it reads the client's QUIT or close: wait for that.
        await until(async () => (await clients()) === 1, 60_000);
      } finally {
        await own.stop();
      }
    });

    it("starts against a Redis that is down, says so, and answers every script JOB_QUEUE_UNAVAILABLE without hanging", async () => {
      const down = `redis://127.0.0.1:${await redisSupport.freePort()}`;
      const cli = startFrontEnd(["--farm", down], { DCC_FARM_REDIS_PASSWORD: "farm-secret-4711" });
      const url = await startupUrl(cli);
      expect(cli.stderr()).toMatch(
        /the farm's queue is unavailable \(Redis at redis:\/\/127\.0\.0\.1:\d+ .*\); scripts answer JOB_QUEUE_UNAVAILABLE/,
      );
      const client = await connectHttp(url);
      try {
        expect(await execute(client, "return 1;", { async: true })).toMatchObject({
          success: false,
          errorCode: "JOB_QUEUE_UNAVAILABLE",
        });
        expect(await execute(client, "return 1;")).toMatchObject({
          success: false,
          errorCode: "JOB_QUEUE_UNAVAILABLE",
        });
        expect((await search(client, "polySphere")).results.length).toBeGreaterThan(0);
        const ready = await fetch(new URL("/readyz", url));
        expect(ready.status).toBe(503);
        const body = (await ready.json()) as { reasons: string[] };
        expect(body.reasons.join("\n")).toMatch(
          /The job queue is unavailable: Redis at redis:\/\/127\.0\.0\.1:\d+/,
        );
      } finally {
        await client.close();
      }
      expect(await stopCli(cli, "SIGTERM")).toBe(0);
      expect(cli.stderr()).not.toContain("farm-secret-4711");
    });

    it("logs in with DCC_FARM_REDIS_PASSWORD, and says NOAUTH without it, never showing the password", async () => {
      const password = "farm-secret-4711";
      const locked = await redisSupport.startRedis({ password });
      let worker: WorkerProcess | undefined;
      try {
        worker = await workerSupport.startWorker(locked.url, [], {
          DCC_FARM_REDIS_PASSWORD: password,
        });
        const cli = startFrontEnd(["--farm", locked.url], { DCC_FARM_REDIS_PASSWORD: password });
        const url = await startupUrl(cli);
        const client = await connectHttp(url);
        try {
          expect(await execute(client, "return dispatch('ls', {}).length;")).toMatchObject({
            success: true,
          });
          expect((await fetch(new URL("/readyz", url))).status).toBe(200);
        } finally {
          await client.close();
        }
        expect(await stopCli(cli, "SIGTERM")).toBe(0);

        const without = startFrontEnd(["--farm", locked.url]);
        const withoutUrl = await startupUrl(without);
        const ready = await fetch(new URL("/readyz", withoutUrl));
        expect(ready.status).toBe(503);
        expect(JSON.stringify(await ready.json())).toMatch(
          /The job queue is unavailable: .*NOAUTH/,
        );
        expect(await stopCli(without, "SIGTERM")).toBe(0);
        expect(without.stderr()).toMatch(/the farm's queue is unavailable \(.*NOAUTH/);
        for (const text of [cli.stderr(), without.stderr()]) expect(text).not.toContain(password);
      } finally {
        await worker?.stop();
        await locked.stop();
      }
    });

    it("refuses a password in the Redis URL without repeating it", async () => {
      const cli = startFrontEnd(["--farm", "redis://:farm-secret-4711@127.0.0.1:6379"]);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toContain(
        "holds a password: leave it out and set DCC_FARM_REDIS_PASSWORD instead",
      );
      expect(cli.stderr()).not.toContain("farm-secret-4711");
    });
  },
);

describe.skipIf(!runs || (!hasBlender && !requireBlender))(
  title(
    `a farm's front end for a Blender pool${hasBlender ? "" : ` (no Blender: ${blenderInstallCommand})`}`,
  ),
  { timeout: 600_000 },
  () => {
    let redis: TestRedis;
    let worker: WorkerProcess | undefined;
    const folders: string[] = [];
    const folder = (): string => {
      const made = mkdtempSync(join(tmpdir(), "dcc-farm-blender-cli-"));
      folders.push(made);
      return made;
    };

    beforeAll(async () => {
      if (!redisSupport.redisAvailable) throw new Error(`Missing: ${redisSupport.redisInstall}`);
      assertBlender();
      redis = await redisSupport.startRedis();
      worker = await workerSupport.startWorker(redis.url, [
        "--dcc",
        "blender",
        "--data-dir",
        folder(),
      ]);
    }, 600_000);

    afterAll(async () => {
      await worker?.stop();
      await redis?.stop();
      for (const made of folders) rmSync(made, { recursive: true, force: true });
    }, 120_000);

    it("runs the scripts in the worker's Blender and none of its own", async () => {
      const cli = spawnCli([
        "--port",
        "0",
        "--dcc",
        "blender",
        "--farm",
        redis.url,
        "--data-dir",
        folder(),
        "--scripts-dir",
        folder(),
      ]);
      try {
        const url = await startupUrl(cli);
        expect(cli.stderr()).toContain("(Blender, catalog only: scripts run on the farm) ready");
        const client = await connectHttp(url);
        try {
          expect((await search(client, "uv sphere")).results.map((hit) => hit.name)).toContain(
            "mesh.primitive_uv_sphere_add",
          );
          const made = await execute(
            client,
            'dispatch("mesh.primitive_uv_sphere_add", { radius: 0.5 }); return dispatch("data.list", { collection: "objects", options: { type: "MESH" } }).map((o) => o.name);',
            { timeout_secs: 120 },
          );
          expect(made).toMatchObject({ success: true, output: expect.arrayContaining(["Sphere"]) });
          const started = await execute(
            client,
            'return dispatch("data.get", { path: "context.mode" });',
            {
              async: true,
            },
          );
          const jobId = started["job_id"] as string;
          await until(async () => {
            const answer = await client.callTool({
              name: "dcc_execute",
              arguments: { job_id: jobId, job_action: "status" },
            });
            const job = (answer.structuredContent as { job?: { status?: string } }).job;
            return job?.status === "completed";
          }, 240_000);
          const processedBy = await redisCli(redis, "HGET", `dcc:jobs-blender:${jobId}`, "pb");
          expect(Number(processedBy.split(":").at(-1))).toBe(worker?.child.pid);
        } finally {
          await client.close();
        }
        // The worker runs a Blender; the server, none.
        const below = descendantsOf(cli.child.pid as number).map(commandLineOf);
        expect(below.filter((line) => /blender/i.test(line))).toEqual([]);
        const workerTree = descendantsOf(worker?.child.pid as number).map(commandLineOf);
        expect(workerTree.some((line) => /blender/i.test(line))).toBe(true);
      } finally {
        await stopCli(cli, "SIGTERM").catch(() => stopCli(cli, "SIGKILL"));
      }
    });
  },
);
