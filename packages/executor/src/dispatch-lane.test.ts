import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandApprovalRule } from "./approval.ts";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import type { DispatchLane } from "./dispatch-lane.ts";
import { SandboxPool } from "./sandbox-pool.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

const pool = new SandboxPool({ size: 1 });
afterAll(() => pool.close());

const module = new URL("./__fixtures__/test-lane.ts", import.meta.url).href;
const mainCalls: string[] = [];
// What `main.close` sets: as an adapter does when it sees its host go.
let hostGone: Int32Array | undefined;
const registry = new ToolRegistry().registerAll(
  [
    "lane.echo",
    "lane.fail",
    "lane.wait",
    "lane.broken",
    "lane.decline",
    "main.only",
    "main.close",
  ].map((name) => ({
    name,
    handler: (args: unknown) => {
      mainCalls.push(name);
      if (name === "main.close" && hostGone !== undefined) Atomics.store(hostGone, 0, 1);
      return { via: "main", args };
    },
  })),
);
const commands = ["lane.echo", "lane.fail", "lane.wait", "lane.broken", "lane.decline"];

function executorWith(lane: () => DispatchLane | undefined): DccApiExecutor {
  return new DccApiExecutor("test", {
    dispatcher: new ToolDispatcher(registry),
    pool,
    dispatchLane: lane,
  });
}

describe("dispatch lanes", () => {
  it("runs the lane's commands in the sandbox thread and the others on the main thread", async () => {
    mainCalls.length = 0;
    const executor = executorWith(() => ({ module, data: { host: "one" }, commands, key: "one" }));
    const result = await executor.execute(
      'return [dispatch("lane.echo", { n: 1 }), dispatch("main.only", { n: 2 })]',
    );
    expect(result).toMatchObject({
      success: true,
      output: [
        { via: "lane", host: "one", args: { n: 1 } },
        { via: "main", args: { n: 2 } },
      ],
      stats: { dispatchCalls: 2 },
    });
    expect(mainCalls).toEqual(["main.only"]);
  });

  it("gives a lane's error to the script as the handler's would be", async () => {
    const executor = executorWith(() => ({ module, data: { host: "one" }, commands, key: "one" }));
    const result = await executor.execute(
      'try { dispatch("lane.fail", {}); } catch (e) { return { code: e.code, message: e.message, data: e.data }; }',
    );
    expect(result).toMatchObject({
      success: true,
      output: { code: "NOT_FOUND", data: { closest: ["thing"] } },
    });
    expect((result as unknown as { output: { message: string } }).output.message).toContain(
      "no such thing",
    );
  });

  it("sends a call the lane cannot carry, and every later one, through the main thread", async () => {
    mainCalls.length = 0;
    const executor = executorWith(() => ({ module, data: { host: "two" }, commands, key: "two" }));
    const result = await executor.execute(
      'return [dispatch("lane.broken", {}), dispatch("lane.echo", { n: 3 })]',
    );
    expect(result).toMatchObject({
      success: true,
      output: [{ via: "main" }, { via: "main", args: { n: 3 } }],
    });
    expect(mainCalls).toEqual(["lane.broken", "lane.echo"]);
    // The next script opens the lane again.
    const again = await executor.execute('return dispatch("lane.echo", {})');
    expect(again).toMatchObject({ output: { via: "lane", host: "two" } });
  });

  it("makes a call the lane declines on the main thread, and keeps the lane", async () => {
    mainCalls.length = 0;
    const executor = executorWith(() => ({ module, data: { host: "one" }, commands, key: "one" }));
    const result = await executor.execute(
      'return [dispatch("lane.decline", {}), dispatch("lane.echo", {})]',
    );
    expect(result).toMatchObject({
      success: true,
      output: [{ via: "main" }, { via: "lane", host: "one" }],
    });
    expect(mainCalls).toEqual(["lane.decline"]);
  });

  it("stops using a lane once its adapter says the host is gone, in the script and after", async () => {
    mainCalls.length = 0;
    const closed = new Int32Array(new SharedArrayBuffer(4));
    hostGone = closed;
    const executor = executorWith(() => ({
      module,
      data: { host: "five" },
      commands,
      key: "five",
      closed,
    }));
    const result = await executor.execute(
      'return [dispatch("lane.echo", { n: 1 }), dispatch("main.close", {}), dispatch("lane.echo", { n: 2 })]',
    );
    expect(result).toMatchObject({
      success: true,
      output: [{ via: "lane", host: "five" }, { via: "main" }, { via: "main", args: { n: 2 } }],
    });
    expect(mainCalls).toEqual(["main.close", "lane.echo"]);
    // A script that starts while it is set does not open the lane again for the same key.
    const later = await executor.execute('return dispatch("lane.echo", { n: 3 })');
    expect(later).toMatchObject({ output: { via: "main", args: { n: 3 } } });
    expect(mainCalls).toEqual(["main.close", "lane.echo", "lane.echo"]);
  });

  it("opens a new lane when the key changes", async () => {
    let key = "three";
    const executor = executorWith(() => ({ module, data: { host: key }, commands, key }));
    await expect(executor.execute('return dispatch("lane.echo", {})')).resolves.toMatchObject({
      output: { host: "three" },
    });
    key = "four";
    await expect(executor.execute('return dispatch("lane.echo", {})')).resolves.toMatchObject({
      output: { host: "four" },
    });
  });

  it("stops a lane call waiting on the host at the script's timeout and on cancel", async () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-lane-wait-"));
    const waiting = join(folder, "waiting");
    try {
      const executor = executorWith(() => ({
        module,
        data: { host: "one", waiting },
        commands,
        key: "one",
      }));
      // A timeout far past the lane call's start on any machine: it ends the wait, not the start.
      const timedOut = await executor.execute('dispatch("lane.wait", {}); return 1', {
        timeoutSecs: 10,
      });
      // The host may still be running the call the script left.
      expect(timedOut).toMatchObject({
        success: false,
        errorCode: "TIMEOUT",
        completion: "unknown",
      });
      rmSync(waiting);
      const controller = new AbortController();
      const cancelled = executor.execute('dispatch("lane.wait", {}); return 1', {
        signal: controller.signal,
      });
      // Cancelled once the lane call waits, not before the script reached it.
      await waitForFile(waiting);
      controller.abort();
      expect(await cancelled).toMatchObject({
        success: false,
        errorCode: "CANCELLED",
        completion: "unknown",
      });
      // The worker is still usable.
      await expect(executor.execute("return 2")).resolves.toMatchObject({ output: 2 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("keeps a command an active approval rule names off the lane: its question is asked first", async () => {
    mainCalls.length = 0;
    const questions: string[] = [];
    const executor = new DccApiExecutor("test", {
      dispatcher: new ToolDispatcher(registry),
      pool,
      dispatchLane: () => ({ module, data: { host: "one" }, commands, key: "one" }),
      approval: { rules: [commandApprovalRule({ name: "publish", commands: ["lane.echo"] })] },
    });
    const result = await executor.execute(
      'return [dispatch("lane.echo", { n: 1 }), dispatch("lane.decline", {}), (() => { try { dispatch("lane.fail", {}) } catch (e) { return e.code } })()]',
      {
        approve: async (question) => {
          questions.push(question.summary);
          return { approved: true };
        },
      },
    );
    expect(result).toMatchObject({
      success: true,
      // lane.fail, named by no rule, still runs on the lane (the main thread's would succeed).
      output: [{ via: "main", args: { n: 1 } }, { via: "main" }, "NOT_FOUND"],
    });
    expect(mainCalls).toEqual(["lane.echo", "lane.decline"]);
    expect(questions).toEqual(['lane.echo {"n":1}']);
  });

  it("runs without the lane when it cannot open, or the adapter's callback throws", async () => {
    mainCalls.length = 0;
    const refusing = executorWith(() => ({
      module,
      data: { host: "x", refuse: true },
      commands,
      key: "refusing",
    }));
    await expect(refusing.execute('return dispatch("lane.echo", {})')).resolves.toMatchObject({
      output: { via: "main" },
    });
    const throwing = executorWith(() => {
      throw new Error("no lane today");
    });
    await expect(throwing.execute('return dispatch("lane.echo", {})')).resolves.toMatchObject({
      output: { via: "main" },
    });
    expect(mainCalls).toEqual(["lane.echo", "lane.echo"]);
  });
});

/** Resolves once `path` exists; a 60 s bound keeps a broken lane from hanging the test. */
async function waitForFile(path: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
