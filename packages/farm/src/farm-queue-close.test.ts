import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const entry = fileURLToPath(new URL("./__fixtures__/queue-close-process.ts", import.meta.url));

describe.skipIf(!redisTestsRun)(redisTitle("closing a farm queue"), { timeout: 180_000 }, () => {
  let redis: TestRedis;
  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
  }, 120_000);
  afterAll(async () => {
    await redis?.stop();
  }, 60_000);

  it("leaves nothing running when Redis went away first: the process exits on its own, quietly", async () => {
    const child = spawn(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", entry, redis.url],
      { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      await waitFor("the job's submission", () => stdout.includes("submitted"), 120_000);
      await redis.stop();
      child.stdin.write("close\n");
      // A hang guard only: the process has nothing left to wait for once its queue is closed.
      await waitFor("the process's own exit", () => child.exitCode !== null, 60_000);
      const [code] = await exited;
      expect(stdout).toContain("closed");
      expect(code).toBe(0);
      expect(stderr).not.toContain("Unhandled error event");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
