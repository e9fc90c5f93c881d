import { DccApiCatalog } from "@dcc/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { approvalScene } from "./__fixtures__/approval-scene.ts";
import { commandApprovalRule } from "./approval.ts";
import { createAdapterExecutor } from "./create-adapter-executor.ts";
import type { DccAdapter } from "./dcc-adapter.ts";
import type { DccApiExecutor } from "./dcc-api-executor.ts";
import { SandboxPool } from "./sandbox-pool.ts";

/** A tiny in-memory DCC: a counter with a synchronous and an asynchronous command. */
function counterAdapter(): DccAdapter & { count: number; closed: number } {
  const adapter = {
    dccName: "counter",
    count: 0,
    closed: 0,
    commands: () => [
      {
        name: "increment",
        signature: "increment(by?: number): number",
        description: "Add to the counter and return it",
        handler: (args: unknown) => {
          adapter.count += typeof args === "number" ? args : 1;
          return adapter.count;
        },
      },
      {
        name: "later",
        description: "Return the counter after a tick, like a command answered over a socket",
        handler: (_args: unknown, { signal }: { signal: AbortSignal }) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(() => resolve(adapter.count), 1);
            signal.addEventListener("abort", () => {
              clearTimeout(timer);
              reject(new Error("aborted"));
            });
          }),
      },
    ],
    catalog: () =>
      new DccApiCatalog("counter", {
        catalogText: "increment - Add to the counter\nlater - Read the counter later",
      }),
    close: async () => {
      adapter.closed += 1;
    },
  };
  return adapter;
}

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

describe("createAdapterExecutor", { timeout: 60_000 }, () => {
  it("runs scripts against the adapter's commands, synchronous and asynchronous", async () => {
    const adapter = counterAdapter();
    executor = createAdapterExecutor(adapter);
    const result = await executor.execute(
      'dispatch("increment", 2); dispatch("increment"); return [dispatch("later"), await dispatch("later")];',
    );
    expect(result).toMatchObject({
      success: true,
      output: [3, 3],
      message: "Script executed successfully on counter.",
    });
    expect(adapter.count).toBe(3);
  });

  it("searches the adapter's catalog, not the registry's records", () => {
    executor = createAdapterExecutor(counterAdapter());
    const found = executor.search("read later");
    expect(found.results.map((record) => record.name)).toEqual(["later"]);
    expect(found.results[0]?.description).toBe("Read the counter later");
  });

  it("takes a name for messages and limits for the sandbox", async () => {
    executor = createAdapterExecutor(counterAdapter(), {
      name: "counter-2",
      limits: { maxDispatchCalls: 2 },
    });
    expect(executor.dccName).toBe("counter-2");
    const result = await executor.execute('for (;;) dispatch("increment");');
    expect(result).toMatchObject({
      success: false,
      errorCode: "LIMIT_EXCEEDED",
      limit: "dispatchCalls",
      message: "Script failed on counter-2.",
    });
  });

  it("leaves the adapter open when the executor closes", async () => {
    const adapter = counterAdapter();
    const own = createAdapterExecutor(adapter);
    await own.close();
    expect(adapter.closed).toBe(0);
  });

  it("runs one script at a time for an adapter with scriptsAtOnce 1: a second waits, never interleaves", async () => {
    const calls: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const adapter: DccAdapter = {
      dccName: "scene",
      scriptsAtOnce: 1,
      commands: () => [
        {
          name: "hold",
          description: "Wait until the test releases it",
          handler: async () => {
            calls.push("a:hold");
            holding();
            await held;
            calls.push("a:done");
          },
        },
        { name: "touch", description: "Note a call", handler: () => void calls.push("b:touch") },
      ],
      catalog: () => new DccApiCatalog("scene", { catalogText: "hold - wait\ntouch - note" }),
    };
    executor = createAdapterExecutor(adapter);
    expect(executor.pool.size).toBe(1);
    const first = executor.execute('await dispatch("hold"); return "a";');
    await started;
    const second = executor.execute('dispatch("touch"); return "b";');
    // With room for two scripts the second would touch the scene while the first holds it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls).toEqual(["a:hold"]);
    release();
    const results = await Promise.all([first, second]);
    expect(results.map((result) => result.success && result.output)).toEqual(["a", "b"]);
    expect(calls).toEqual(["a:hold", "a:done", "b:touch"]);
  });

  it("refuses a pool larger than the adapter's scriptsAtOnce, and a scriptsAtOnce that is not a count", async () => {
    const pool = new SandboxPool({ size: 2 });
    try {
      expect(() =>
        createAdapterExecutor({ ...counterAdapter(), scriptsAtOnce: 1 }, { pool }),
      ).toThrow(
        expect.objectContaining({
          code: "INVALID_LIMITS",
          message: expect.stringContaining(
            "counter runs at most 1 script(s) at once, but the given pool runs 2",
          ),
        }),
      );
      expect(() => createAdapterExecutor({ ...counterAdapter(), scriptsAtOnce: 0 })).toThrow(
        expect.objectContaining({
          code: "INVALID_LIMITS",
          message: expect.stringContaining("scriptsAtOnce"),
        }),
      );
      const fits = createAdapterExecutor({ ...counterAdapter(), scriptsAtOnce: 2 }, { pool });
      expect(fits.pool).toBe(pool);
      await fits.close();
    } finally {
      await pool.close();
    }
  });

  it("refuses an adapter whose commands clash, before any worker starts", () => {
    const adapter = counterAdapter();
    const twice: DccAdapter = {
      ...adapter,
      commands: () => [...adapter.commands(), ...adapter.commands()],
    };
    expect(() => createAdapterExecutor(twice)).toThrow(
      expect.objectContaining({ code: "DUPLICATE_COMMAND" }),
    );
  });

  describe("approval rules", () => {
    it("turns on the adapter's shared rules named in ask, with the bound on a question", async () => {
      const scene = approvalScene();
      executor = createAdapterExecutor(scene, {
        approval: { ask: ["delete"], timeoutSecs: 0.2 },
      });
      const asked: string[] = [];
      const result = await executor.execute(
        'dispatch("save", { path: "shot.mb" });\n' +
          'try { dispatch("delete", { names: ["pSphere1"] }) } catch (e) { return e.data }',
        {
          // Never answers: the 0.2 s bound denies it.
          approve: (question) => {
            asked.push(question.rule);
            return new Promise(() => {});
          },
        },
      );
      expect(result).toMatchObject({ output: { rule: "delete", reason: "timeout" } });
      // overwrite is declared by the adapter but not on.
      expect(asked).toEqual(["delete"]);
      expect(scene.ran).toEqual(["save shot.mb"]);
    });

    it("refuses an ask name that is neither shared nor a given rule's, naming the known ones", () => {
      const rules = [commandApprovalRule({ name: "publish", commands: ["publish"] })];
      expect(() =>
        createAdapterExecutor(approvalScene(), { approval: { ask: ["delete", "nuke"], rules } }),
      ).toThrow(
        expect.objectContaining({
          name: "DccMcpError",
          code: "INVALID_APPROVAL_RULE",
          message:
            "Unknown approval rule 'nuke': use one of delete, overwrite, open, render, publish, or define it as a custom rule",
        }),
      );
    });

    it("refuses a custom rule naming a command the adapter does not have", () => {
      const rules = [commandApprovalRule({ name: "publish", commands: ["publish", "shipIt"] })];
      expect(() =>
        createAdapterExecutor(approvalScene(), { approval: { ask: ["publish"], rules } }),
      ).toThrow(
        expect.objectContaining({
          code: "INVALID_APPROVAL_RULE",
          message: "Approval rule 'publish' names commands scene does not have: shipIt",
        }),
      );
    });

    it("refuses a rule name that is not kebab-case and a bound that is not a positive number", () => {
      const shouty = commandApprovalRule({ name: "Publish It", commands: ["publish"] });
      expect(() =>
        createAdapterExecutor(approvalScene(), {
          approval: { ask: ["Publish It"], rules: [shouty] },
        }),
      ).toThrow(
        expect.objectContaining({
          code: "INVALID_APPROVAL_RULE",
          message: expect.stringContaining('"Publish It"'),
        }),
      );
      // Past a day the timer behind the bound would fire at once.
      for (const timeoutSecs of [0, -1, Number.NaN, 86_401, 3e6]) {
        expect(() =>
          createAdapterExecutor(approvalScene(), { approval: { ask: ["delete"], timeoutSecs } }),
        ).toThrow(
          expect.objectContaining({
            code: "INVALID_LIMITS",
            message: expect.stringContaining("approval.timeoutSecs"),
          }),
        );
      }
    });

    it("asks nothing for a shared rule the adapter does not declare, or an empty ask", async () => {
      const adapter = counterAdapter();
      for (const approval of [{ ask: ["delete"] }, { ask: [] }]) {
        const own = createAdapterExecutor(adapter, { approval });
        try {
          // No approver: any question would be denied as no-one-to-ask.
          await expect(own.execute('return dispatch("increment")')).resolves.toMatchObject({
            success: true,
          });
        } finally {
          await own.close();
        }
      }
    });
  });
});
