import { CancelToken, currentCancelToken, withCancelToken } from "@dcc/cancel";
import { describe, expect, it } from "vitest";
import { CommandError } from "./command-error.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
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
    expect(dispatcher.dispatchNow("sync", 1)).toEqual({ ok: true, value: 1 });
    expect(dispatcher.dispatchNow("nope", 1)).toMatchObject({
      ok: false,
      error: { code: "UNKNOWN_COMMAND" },
    });
    const held = dispatcher.dispatchNow("hold", null);
    expect(held).toBeInstanceOf(Promise);
    // Behind a running command, even a synchronous one waits its turn.
    const queued = dispatcher.dispatchNow("sync", 2);
    expect(queued).toBeInstanceOf(Promise);
    release();
    expect(await held).toBe("held");
    expect(await queued).toBe(2);
    expect(dispatcher.dispatchNow("sync", 3)).toEqual({ ok: true, value: 3 });
  });
});
