// An output over the output limit is cut structurally, not failed: with real QuickJS and an
// adapter whose scripts are transactions, the script succeeds, its changes are committed, and
// the result says what was cut.
import { DccApiCatalog } from "@dcc/catalog";
import { afterAll, describe, expect, it } from "vitest";
import { createAdapterExecutor } from "../create-adapter-executor.ts";
import type { DccAdapter } from "../dcc-adapter.ts";
import type { ExecuteResult, ExecuteSuccess } from "../execute-result.ts";
import type { ExecutorLimits } from "../executor-limits.ts";

interface ListScene {
  items: string[];
  events: string[];
}

/** A DCC whose scene is a list; each script is a transaction that a failure rolls back. */
function listAdapter(): DccAdapter & ListScene {
  const adapter: DccAdapter & ListScene = {
    dccName: "list",
    items: [],
    events: [],
    commands: () => [
      {
        name: "add",
        handler: (args: unknown) => {
          adapter.items.push(String(args));
          return adapter.items.length;
        },
      },
    ],
    catalog: () => new DccApiCatalog("list", { catalogText: "add - Add an item" }),
    beginTransaction: async () => {
      const before = [...adapter.items];
      adapter.events.push("begin");
      return {
        commit: async () => {
          adapter.events.push("commit");
          return { rolledBack: false, undoStep: "list script" };
        },
        rollback: async () => {
          adapter.items = before;
          adapter.events.push("rollback");
          return { rolledBack: true };
        },
      };
    },
  };
  return adapter;
}

const executors: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const executor of executors.splice(0)) await executor.close();
});

function start(limits: Partial<ExecutorLimits> = {}) {
  const adapter = listAdapter();
  const executor = createAdapterExecutor(adapter, { limits: { maxTimeoutSecs: 300, ...limits } });
  executors.push(executor);
  const run = (code: string): Promise<ExecuteResult> =>
    executor.execute(code, { timeoutSecs: 300 });
  return { adapter, executor, run };
}

function succeeded(result: ExecuteResult): ExecuteSuccess {
  if (!result.success) throw new Error(`the script failed: ${result.errorCode}: ${result.error}`);
  return result;
}

describe("an output over the output limit", () => {
  it("is cut, and the script succeeds and keeps its changes", async () => {
    const { adapter, run } = start();
    const result = succeeded(
      await run(
        'dispatch("add", "torus");\n' +
          'return Array.from({ length: 20000 }, (_, i) => ({ name: "vertex" + i, co: [i, i / 2, i / 4], tag: "t".repeat(60) }));',
      ),
    );
    expect(adapter.items).toEqual(["torus"]);
    expect(adapter.events).toEqual(["begin", "commit"]);
    expect(result.transaction).toMatchObject({ rolledBack: false, undoStep: "list script" });
    const output = result.output as unknown[];
    expect(output[0]).toEqual({ name: "vertex0", co: [0, 0, 0], tag: "t".repeat(60) });
    expect(output.at(-1)).toBe(`… ${20000 - (output.length - 1)} more items`);
    const text = JSON.stringify(result.output);
    expect(text.length).toBeLessThanOrEqual(1024 * 1024);
    expect(result.truncated).toMatchObject({
      limitChars: 1024 * 1024,
      keptChars: text.length,
      itemsLeftOut: 20000 - (output.length - 1),
      keysLeftOut: 0,
      stringsShortened: 0,
    });
    expect(result.truncated?.note).toMatch(/over the output limit of 1048576.*changes were kept/);
  });

  it("says how large the whole output was when it measured it", async () => {
    const { run } = start({ maxOutputChars: 2000 });
    // Close enough to the limit to be measured: each number takes 10 characters and a comma.
    const result = succeeded(
      await run("return Array.from({ length: 250 }, (_, i) => 123456.75 + i);"),
    );
    expect(result.truncated).toMatchObject({
      originalChars: JSON.stringify(Array.from({ length: 250 }, (_, i) => 123456.75 + i)).length,
      // 200 items of 10 characters and a comma run out of the budget, so the caps drop to a
      // quarter: 50 items fit.
      itemsLeftOut: 200,
    });
    expect(result.truncated?.note).toMatch(/^The output was 2\d{3} characters of JSON/);
  });

  it("leaves an output within the limit whole, with no report", async () => {
    const { run } = start({ maxOutputChars: 2000 });
    const result = succeeded(
      await run("return { list: Array.from({ length: 100 }, (_, i) => i) };"),
    );
    expect((result.output as { list: number[] }).list).toHaveLength(100);
    expect(result.truncated).toBeUndefined();
  });

  it("cuts arrays, objects, strings and depth the way the MCP bridge does, counting each", async () => {
    const { run } = start({ maxOutputChars: 10_000 });
    const result = succeeded(
      await run(
        "const keys = {}; for (let i = 0; i < 300; i++) keys['k' + i] = i;\n" +
          "let deep = 'bottom'; for (let i = 0; i < 12; i++) deep = [deep];\n" +
          "return { items: Array.from({ length: 250 }, (_, i) => i), keys, text: 'x'.repeat(9000), deep, big: BigInt(7) };",
      ),
    );
    const output = result.output as Record<string, unknown>;
    expect((output["items"] as unknown[]).length).toBe(201);
    expect((output["items"] as unknown[])[200]).toBe("… 50 more items");
    expect(Object.keys(output["keys"] as object)).toHaveLength(201);
    expect((output["keys"] as Record<string, unknown>)["…"]).toBe("100 more keys");
    expect(output["text"]).toBe(`${"x".repeat(4000)}… [5000 more chars]`);
    // The depth cap is 8 levels below the output itself.
    let level: unknown = output["deep"];
    for (let i = 0; i < 7; i++) level = (level as unknown[])[0];
    expect(level).toBe("[array of 1]");
    expect(output["big"]).toBe("7");
    expect(result.truncated).toMatchObject({
      limitChars: 10_000,
      itemsLeftOut: 50,
      keysLeftOut: 100,
      stringsShortened: 1,
      charsLeftOut: 5000,
      valuesSummarised: 1,
    });
    expect(JSON.stringify(result.output).length).toBe(result.truncated?.keptChars);
  });

  it("halves its caps until the output fits a small limit", async () => {
    const { run } = start({ maxOutputChars: 300 });
    const result = succeeded(
      await run(
        "return Array.from({ length: 1000 }, (_, i) => ({ name: 'n' + i, values: [i, i, i] }));",
      ),
    );
    const text = JSON.stringify(result.output);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/more items/);
    expect(result.truncated?.keptChars).toBe(text.length);
  });

  it("cuts a 50 MB return without measuring all of it", async () => {
    // Memory enough for the string itself: the memory limit is not what this is about.
    const { adapter, run } = start({ memoryBytes: 256 * 1024 * 1024 });
    const result = succeeded(
      await run(
        'dispatch("add", "cone");\nconst big = "y".repeat(50 * 1024 * 1024);\nreturn { big, count: 1 };',
      ),
    );
    expect(adapter.items).toEqual(["cone"]);
    expect(result.output).toEqual({
      big: `${"y".repeat(4000)}… [${50 * 1024 * 1024 - 4000} more chars]`,
      count: 1,
    });
    expect(result.truncated).toMatchObject({ charsLeftOut: 50 * 1024 * 1024 - 4000 });
    // Far over the limit, the output is never measured whole.
    expect(result.truncated?.originalChars).toBeUndefined();
  });

  it("still fails a script that runs out of memory, and rolls its changes back", async () => {
    const { adapter, run } = start();
    const result = await run(
      'dispatch("add", "sphere");\nconst all = []; for (let i = 0; ; i++) all.push("z".repeat(1000) + i);',
    );
    expect(result).toMatchObject({ success: false, errorCode: "LIMIT_EXCEEDED", limit: "memory" });
    expect(adapter.items).toEqual([]);
    expect(adapter.events).toEqual(["begin", "rollback"]);
  });

  it("still refuses a value JSON cannot carry in the part that is kept", async () => {
    const { run } = start({ maxOutputChars: 1000 });
    const result = await run("return { first: () => 1, rest: 'x'.repeat(5000) };");
    expect(result).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect((result as { error: string }).error).toMatch(/a function at output\.first/);
  });
});
