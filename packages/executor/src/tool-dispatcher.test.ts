import { CancelToken, currentCancelToken, withCancelToken } from "@dcc/cancel";
import { afterAll, describe, expect, it } from "vitest";
import { CommandError } from "./command-error.ts";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import type { ExecuteResult } from "./execute-result.ts";
import { dispatchNow, ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

async function rejection(promise: Promise<unknown>): Promise<CommandError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("ToolDispatcher", () => {
  it("runs a command with its arguments and context", async () => {
    const registry = new ToolRegistry().register({
      name: "echo",
      handler: (args, context) => ({
        args,
        command: context.command,
        aborted: context.signal.aborted,
      }),
    });
    const dispatcher = new ToolDispatcher(registry);
    expect(await dispatcher.dispatch("echo", { a: 1 })).toEqual({
      args: { a: 1 },
      command: "echo",
      aborted: false,
    });
  });

  it("suggests the closest names for an unknown command", async () => {
    const registry = new ToolRegistry().registerAll(
      ["polySphere", "polyCube", "polyCylinder", "move", "setAttr"].map((name) => ({
        name,
        handler: () => null,
      })),
    );
    const dispatcher = new ToolDispatcher(registry);
    const typo = await rejection(dispatcher.dispatch("polySpher", {}));
    expect(typo).toMatchObject({ code: "UNKNOWN_COMMAND", command: "polySpher" });
    expect(typo.suggestions[0]).toBe("polySphere");
    expect(typo.message).toContain("Did you mean");
    const prefix = await rejection(dispatcher.dispatch("setattribute", {}));
    expect(prefix.suggestions).toContain("setAttr");
    const none = await rejection(dispatcher.dispatch("xyzzy", {}));
    expect(none.suggestions).toEqual([]);
  });

  it("keeps a handler's own error code and marks others COMMAND_FAILED", async () => {
    const registry = new ToolRegistry().registerAll([
      {
        name: "coded",
        handler: () => {
          throw Object.assign(new Error("No object matches name: foo"), { code: "NO_OBJECT" });
        },
      },
      {
        name: "plain",
        handler: async () => {
          throw new TypeError("boom");
        },
      },
    ]);
    const dispatcher = new ToolDispatcher(registry);
    expect(await rejection(dispatcher.dispatch("coded", {}))).toMatchObject({
      code: "NO_OBJECT",
      command: "coded",
      message: "No object matches name: foo",
    });
    expect(await rejection(dispatcher.dispatch("plain", {}))).toMatchObject({
      code: "COMMAND_FAILED",
      message: "boom",
    });
  });

  it("rejects invalid arguments before running the handler", async () => {
    let ran = false;
    const registry = new ToolRegistry().register({
      name: "move",
      handler: () => {
        ran = true;
      },
      argsSchema: { type: "object", required: ["args"] },
    });
    const error = await rejection(new ToolDispatcher(registry).dispatch("move", {}));
    expect(error.code).toBe("INVALID_ARGS");
    expect(ran).toBe(false);
  });

  it("runs commands one at a time, in call order", async () => {
    const order: string[] = [];
    let active = 0;
    let maxActive = 0;
    const registry = new ToolRegistry().register({
      name: "step",
      handler: async (args) => {
        active++;
        maxActive = Math.max(maxActive, active);
        order.push(`start ${String(args)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${String(args)}`);
        active--;
        if (args === 2) throw new Error("two fails");
        return args;
      },
    });
    const dispatcher = new ToolDispatcher(registry);
    const results = await Promise.allSettled([1, 2, 3].map((n) => dispatcher.dispatch("step", n)));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(maxActive).toBe(1);
    expect(order).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it("never starts a call whose signal aborted while it was queued", async () => {
    let release!: () => void;
    const started: string[] = [];
    const registry = new ToolRegistry().register({
      name: "hold",
      handler: (args) => {
        started.push(String(args));
        return args === "first" ? new Promise<void>((resolve) => (release = resolve)) : null;
      },
    });
    const dispatcher = new ToolDispatcher(registry);
    const controller = new AbortController();
    const first = dispatcher.dispatch("hold", "first");
    const second = dispatcher.dispatch("hold", "second", { signal: controller.signal });
    controller.abort();
    await Promise.resolve();
    release();
    await first;
    expect(await rejection(second)).toMatchObject({ code: "CANCELLED" });
    expect(started).toEqual(["first"]);
  });

  it("runs a handler inside the caller's ambient cancel context", async () => {
    const token = new CancelToken();
    const registry = new ToolRegistry().register({
      name: "probe",
      handler: () => currentCancelToken() === token,
    });
    const dispatcher = new ToolDispatcher(registry);
    expect(await withCancelToken(token, () => dispatcher.dispatch("probe", null))).toBe(true);
  });

  it("runs a queued handler inside its own caller's ambient cancel context", async () => {
    let release!: () => void;
    const registry = new ToolRegistry().registerAll([
      { name: "hold", handler: () => new Promise<void>((resolve) => (release = resolve)) },
      { name: "probe", handler: () => currentCancelToken() },
    ]);
    const dispatcher = new ToolDispatcher(registry);
    const first = new CancelToken();
    const second = new CancelToken();
    const held = withCancelToken(first, () => dispatcher.dispatch("hold", null));
    const probed = withCancelToken(second, () => dispatcher.dispatch("probe", null));
    release();
    await held;
    expect(await probed).toBe(second);
  });

  it("runs a synchronous handler at once through dispatchNow when nothing is queued", async () => {
    let release!: () => void;
    const registry = new ToolRegistry().registerAll([
      { name: "sync", handler: (args) => args },
      {
        name: "hold",
        handler: () => new Promise<string>((resolve) => (release = () => resolve("held"))),
      },
    ]);
    const dispatcher = new ToolDispatcher(registry);
    expect(dispatchNow(dispatcher, "sync", 1)).toEqual({ ok: true, value: 1 });
    expect(dispatchNow(dispatcher, "nope", 1)).toMatchObject({
      ok: false,
      error: { code: "UNKNOWN_COMMAND" },
    });
    const held = dispatchNow(dispatcher, "hold", null);
    expect(held).toBeInstanceOf(Promise);
    // Behind a running command, even a synchronous one waits its turn.
    const queued = dispatchNow(dispatcher, "sync", 2);
    expect(queued).toBeInstanceOf(Promise);
    release();
    expect(await held).toBe("held");
    expect(await queued).toBe(2);
    expect(dispatchNow(dispatcher, "sync", 3)).toEqual({ ok: true, value: 3 });
  });
});

/** A handler that never settles until the test releases it, and ignores its signal. */
function hangingCommands(): {
  registry: ToolRegistry;
  started: string[];
  release(): void;
} {
  const started: string[] = [];
  const pending: Array<() => void> = [];
  const registry = new ToolRegistry().registerAll([
    {
      name: "hang",
      handler: () => {
        started.push("hang");
        return new Promise<string>((resolve) => pending.push(() => resolve("released")));
      },
    },
    {
      // Honours its signal: stops as soon as it aborts.
      name: "wait",
      handler: (_args, { signal }) => {
        started.push("wait");
        return new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new Error("wait aborted")), {
            once: true,
          }),
        );
      },
    },
    {
      name: "echo",
      handler: (args) => {
        started.push(`echo ${String(args)}`);
        return args;
      },
    },
  ]);
  return {
    registry,
    started,
    release: () => {
      for (const resolve of pending.splice(0)) resolve();
    },
  };
}

const busyMessage =
  /^Host command hang is still running \d+\.\d s after its script was stopped \(\d+\.\d s in all\); the DCC is busy\.$/;

describe("ToolDispatcher with a command whose caller is gone", () => {
  it("says how long ago the caller stopped, apart from how long the command has run", async () => {
    const { registry, release } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const caller = new AbortController();
    const hung = dispatcher.dispatch("hang", null, { signal: caller.signal });
    // The command runs for at least 400 ms before its caller goes: rounded to tenths, the two
    // figures still differ by more than 0.2 s, whatever the machine's speed.
    await new Promise((resolve) => setTimeout(resolve, 400));
    caller.abort();
    const refused = await rejection(dispatcher.dispatch("echo", 1));
    const [, stopped, total] = /running (\d+\.\d) s after .*\((\d+\.\d) s in all\)/.exec(
      refused.message,
    ) ?? ["", "NaN", "NaN"];
    expect(Number(total) - Number(stopped)).toBeGreaterThanOrEqual(0.2);
    release();
    await hung;
  });

  it("refuses new calls with HOST_BUSY while the orphaned command runs, and serves again once it settles", async () => {
    const { registry, started, release } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const caller = new AbortController();
    const hung = dispatcher.dispatch("hang", null, { signal: caller.signal });
    caller.abort();
    const refused = await rejection(dispatcher.dispatch("echo", 1));
    expect(refused).toMatchObject({ code: "HOST_BUSY", command: "echo" });
    expect(refused.message).toMatch(busyMessage);
    // Once orphaned, a call is refused at once, without a promise.
    const now = dispatchNow(dispatcher, "echo", 2);
    expect(now).toMatchObject({ ok: false, error: { code: "HOST_BUSY" } });
    expect(started).toEqual(["hang"]);
    release();
    expect(await hung).toBe("released");
    expect(await dispatcher.dispatch("echo", 3)).toBe(3);
    expect(started).toEqual(["hang", "echo 3"]);
  });

  it("refuses calls already queued when the running command's caller goes", async () => {
    const { registry, started, release } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const caller = new AbortController();
    const hung = dispatcher.dispatch("hang", null, { signal: caller.signal });
    const queued = dispatcher.dispatch("echo", 1, { signal: new AbortController().signal });
    caller.abort();
    expect(await rejection(queued)).toMatchObject({ code: "HOST_BUSY", command: "echo" });
    expect(started).toEqual(["hang"]);
    release();
    await hung;
  });

  it("keeps queued calls waiting behind a command whose caller is still there", async () => {
    const { registry, started, release } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const hung = dispatcher.dispatch("hang", null, { signal: new AbortController().signal });
    const queued = dispatcher.dispatch("echo", 1);
    let settled = false;
    queued.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(settled).toBe(false);
    expect(started).toEqual(["hang"]);
    release();
    expect(await hung).toBe("released");
    expect(await queued).toBe(1);
  });

  it("lets a queued call whose own signal aborts leave the queue at once", async () => {
    const { registry, release } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const hung = dispatcher.dispatch("hang", null);
    const caller = new AbortController();
    const queued = dispatcher.dispatch("echo", 1, { signal: caller.signal });
    caller.abort();
    expect(await rejection(queued)).toMatchObject({ code: "CANCELLED", command: "echo" });
    release();
    await hung;
  });

  it("does not report busy for a command that stops when its signal aborts", async () => {
    const { registry, started } = hangingCommands();
    const dispatcher = new ToolDispatcher(registry);
    const caller = new AbortController();
    const waiting = dispatcher.dispatch("wait", null, { signal: caller.signal });
    const next = dispatcher.dispatch("echo", 1);
    caller.abort();
    expect(await rejection(waiting)).toMatchObject({ code: "COMMAND_FAILED" });
    expect(await next).toBe(1);
    expect(await dispatcher.dispatch("echo", 2)).toBe(2);
    expect(started).toEqual(["wait", "echo 1", "echo 2"]);
  });
});

describe("HOST_BUSY through DccApiExecutor.execute", () => {
  const commands = hangingCommands();
  const executor = new DccApiExecutor("maya", {
    dispatcher: new ToolDispatcher(commands.registry),
  });
  afterAll(async () => {
    commands.release();
    await executor.close();
  });

  const catching =
    "try { return dispatch('echo', 'after'); } catch (error) { return { code: error.code, command: error.command, message: error.message }; }";

  async function startedHang(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!commands.started.includes("hang") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(commands.started).toContain("hang");
  }

  it("a script after a timed-out one sees a catchable HOST_BUSY, and dispatch works after release", async () => {
    // A warm sandbox, so the script reaches its dispatch well within its timeout.
    expect(await executor.execute("return 1;", { timeoutSecs: 30 })).toMatchObject({ output: 1 });
    commands.started.length = 0;
    const hung = await executor.execute("dispatch('hang', {}); return 'unreachable';", {
      timeoutSecs: 2,
    });
    expect(commands.started).toEqual(["hang"]);
    expect(hung).toMatchObject({ success: false, errorCode: "TIMEOUT", completion: "unknown" });
    const busy = (await executor.execute(catching, { timeoutSecs: 30 })) as ExecuteResult & {
      output?: { code: string; command: string; message: string };
    };
    expect(busy.output).toMatchObject({ code: "HOST_BUSY", command: "echo" });
    expect(busy.output?.message).toMatch(busyMessage);
    commands.release();
    expect(await executor.execute(catching, { timeoutSecs: 30 })).toMatchObject({
      success: true,
      output: "after",
    });
  });

  it("a cancelled script's orphan makes an uncaught dispatch fail the next script, not hang it", async () => {
    commands.started.length = 0;
    const caller = new AbortController();
    const cancelled = executor.execute("dispatch('hang', {}); return 'unreachable';", {
      timeoutSecs: 30,
      signal: caller.signal,
    });
    await startedHang();
    caller.abort();
    expect(await cancelled).toMatchObject({ errorCode: "CANCELLED", completion: "unknown" });
    const failed = await executor.execute("return dispatch('echo', 'after');", { timeoutSecs: 30 });
    expect(failed).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(failed.success ? "" : failed.error).toMatch(/Host command hang is still running/);
    commands.release();
    expect(
      await executor.execute("return dispatch('echo', 'after');", { timeoutSecs: 30 }),
    ).toMatchObject({ success: true, output: "after" });
  });
});
