import { describe, expect, it } from "vitest";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import { SandboxPool } from "./sandbox-pool.ts";

describe("SandboxPool", () => {
  it("serves several executors; closing one that does not own it leaves it running", async () => {
    const pool = new SandboxPool({ size: 1 });
    try {
      await pool.warmUp();
      const maya = new DccApiExecutor("maya", { pool });
      const blender = new DccApiExecutor("blender", { pool });
      const [a, b] = await Promise.all([maya.execute("return 'm'"), blender.execute("return 'b'")]);
      expect([a, b].map((result) => (result.success ? result.output : result.error))).toEqual([
        "m",
        "b",
      ]);
      await maya.close();
      expect(await blender.execute("return 1")).toMatchObject({ success: true, output: 1 });
    } finally {
      await pool.close();
    }
  });

  it("queues executions beyond its size and runs them in turn", async () => {
    const pool = new SandboxPool({ size: 1 });
    const executor = new DccApiExecutor("maya", { pool });
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          executor.execute(`let s = 0; for (let i = 0; i < 1e5; i++) s += i; return ${index}`),
        ),
      );
      expect(results.map((result) => (result.success ? result.output : result.error))).toEqual([
        0, 1, 2, 3, 4,
      ]);
    } finally {
      await pool.close();
    }
  });

  it("times out an execution still waiting for a worker, without running it", async () => {
    const pool = new SandboxPool({ size: 1 });
    const executor = new DccApiExecutor("maya", { pool });
    try {
      const busy = executor.execute("while (true) {}", { timeoutSecs: 2 });
      const queued = await executor.execute("return 1", { timeoutSecs: 1 });
      expect(queued).toMatchObject({ errorCode: "TIMEOUT", completion: "not_started" });
      expect(await busy).toMatchObject({ errorCode: "TIMEOUT" });
    } finally {
      await pool.close();
    }
  });

  it("fails executions after close instead of hanging", async () => {
    const pool = new SandboxPool({ size: 1 });
    const executor = new DccApiExecutor("maya", { pool });
    expect(await executor.execute("return 1")).toMatchObject({ success: true });
    await pool.close();
    await pool.close();
    expect(await executor.execute("return 1")).toMatchObject({
      success: false,
      errorCode: "INTERNAL",
      completion: "not_started",
    });
  });

  it("refuses an executor whose memory limit the pool cannot hold", () => {
    const pool = new SandboxPool({ size: 1, memoryBytes: 16 * 1024 * 1024 });
    expect(
      () => new DccApiExecutor("maya", { pool, limits: { memoryBytes: 64 * 1024 * 1024 } }),
    ).toThrow(/exceeds the pool's memoryBytes/);
  });
});
