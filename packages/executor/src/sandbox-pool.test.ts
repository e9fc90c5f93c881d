import { describe, expect, it } from "vitest";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import { SandboxPool } from "./sandbox-pool.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

/** Resolves once `condition()` holds; rejects after `withinMs` (generous: a loaded 2-core box). */
async function until(condition: () => boolean, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

  it("cancels a run still waiting for its worker to start, instead of running it later", async () => {
    const pool = new SandboxPool({ size: 1 });
    const executor = new DccApiExecutor("maya", { pool });
    try {
      const controller = new AbortController();
      const spinning = executor.execute("while (true) {}", {
        signal: controller.signal,
        timeoutSecs: 20,
      });
      // Synchronously after the call: the pool is still starting its first worker.
      expect(pool.stats).toMatchObject({ workers: 1, starting: 1 });
      controller.abort("stop");
      expect(await spinning).toMatchObject({ errorCode: "CANCELLED", completion: "not_started" });
      expect(await executor.execute("return 1")).toMatchObject({ success: true, output: 1 });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("keeps a warm spare while a run is busy: the run after a cancel waits for no worker", async () => {
    const pool = new SandboxPool({ size: 2 });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const registry = new ToolRegistry().register({ name: "started", handler: () => started() });
    const executor = new DccApiExecutor("maya", { pool, dispatcher: new ToolDispatcher(registry) });
    try {
      // One worker, and it has run before.
      expect(await executor.execute("return 0")).toMatchObject({ output: 0 });
      expect(pool.stats).toMatchObject({ workers: 1, idle: 1 });
      const controller = new AbortController();
      const spinning = executor.execute('dispatch("started"); while (true) {}', {
        signal: controller.signal,
        timeoutSecs: 120,
      });
      await running;
      // Started in the background while the first worker is busy, not when a run needs it.
      await until(() => pool.stats.idle === 1);
      controller.abort();
      const next = executor.execute("return 1");
      // Handed the spare at once: nothing is starting for it, and the cancelled worker (not back
      // yet, it reports through the event loop) is not waited for.
      expect(pool.stats).toEqual({ workers: 2, idle: 0, starting: 0, busy: 2, queued: 0 });
      expect(await next).toMatchObject({ success: true, output: 1 });
      expect(await spinning).toMatchObject({ errorCode: "CANCELLED" });
      await until(() => pool.stats.idle === 2);
      expect(pool.stats).toEqual({ workers: 2, idle: 2, starting: 0, busy: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  }, 60_000);

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
