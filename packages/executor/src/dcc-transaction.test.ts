import { DccApiCatalog } from "@dcc/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { createAdapterExecutor } from "./create-adapter-executor.ts";
import type { DccAdapter } from "./dcc-adapter.ts";
import type { DccApiExecutor } from "./dcc-api-executor.ts";
import type { DccChangeReport, DccTransactionOptions } from "./dcc-transaction.ts";

interface ListHost {
  items: string[];
  /** Named undo steps: each holds the items before it. */
  undo: Array<{ label: string; before: string[] }>;
  /** What happened, in order. */
  events: string[];
  /** Releases a held `hold` command. */
  release: (() => void) | undefined;
  held: Promise<void>;
  /** Called as each transaction begins. */
  onBegin: (() => void) | undefined;
}

/** An in-memory DCC whose scene is a list, with a real undo stack and transactions. */
function listAdapter(
  options: { undo?: boolean; scriptsAtOnce?: number; beginFails?: boolean } = {},
): DccAdapter & ListHost {
  let heldNow: () => void = () => {};
  const adapter: DccAdapter & ListHost = {
    dccName: "list",
    items: [],
    undo: [],
    events: [],
    release: undefined,
    onBegin: undefined,
    held: new Promise((resolve) => {
      heldNow = resolve;
    }),
    ...(options.scriptsAtOnce === undefined ? {} : { scriptsAtOnce: options.scriptsAtOnce }),
    commands: () => [
      {
        name: "add",
        handler: (args: unknown) => {
          adapter.items.push(String(args));
          adapter.events.push(`add ${String(args)}`);
          return adapter.items.length;
        },
      },
      {
        name: "hold",
        description: "Adds, then answers once released (a slow host command)",
        handler: (args: unknown, { signal }: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            // Stops when the host signal aborts only if asked to (`stops`), like a host
            // command that ends when its script is stopped.
            if (args === "stops") {
              signal.addEventListener("abort", () => {
                adapter.events.push("stopped");
                resolve(false);
              });
            }
            adapter.items.push(String(args));
            adapter.events.push(`hold ${String(args)}`);
            adapter.release = () => {
              adapter.events.push(`released ${String(args)}`);
              resolve(true);
            };
            heldNow();
          }),
      },
    ],
    catalog: () => new DccApiCatalog("list", { catalogText: "add - Add an item" }),
  };
  if (options.undo !== false) {
    adapter.beginTransaction = async ({ label }: DccTransactionOptions) => {
      if (options.beginFails === true) throw new Error("the host is read-only");
      const before = [...adapter.items];
      adapter.events.push(`begin ${label}`);
      adapter.onBegin?.();
      return {
        commit: async () => {
          adapter.events.push("commit");
          adapter.undo.push({ label, before });
          return { rolledBack: false, undoStep: label };
        },
        rollback: async () => {
          adapter.events.push("rollback");
          adapter.items = before;
          return { rolledBack: true, filesWritten: ["renders/a.png"] };
        },
      };
    };
  }
  return adapter;
}

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

describe("scripts are transactions", { timeout: 60_000 }, () => {
  it("commits a successful script as one undo step named after the call", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const result = await executor.execute('dispatch("add", "a"); dispatch("add", "b"); return 1', {
      undoLabel: "dcc_execute: two items",
    });
    expect(result).toMatchObject({
      success: true,
      transaction: { rolledBack: false, undoStep: "dcc_execute: two items" },
    });
    expect(adapter.items).toEqual(["a", "b"]);
    expect(adapter.undo).toEqual([{ label: "dcc_execute: two items", before: [] }]);
    expect(adapter.events).toEqual(["begin dcc_execute: two items", "add a", "add b", "commit"]);
  });

  it("takes the result's changes from the adapter's net report over the commands' own reports", async () => {
    const commit = { rolledBack: false, undoStep: "net" };
    const reportingAdapter = (changes: DccChangeReport | undefined): DccAdapter => ({
      dccName: "list",
      commands: () => [
        // A command that reports what it made, under the name it had then.
        { name: "make", handler: () => ({ created: ['objects["Cube.001"]'], removed: [] }) },
      ],
      catalog: () => new DccApiCatalog("list", { catalogText: "make - Make an item" }),
      beginTransaction: async () => ({
        commit: async () => ({ ...commit, ...(changes === undefined ? {} : { changes }) }),
        rollback: async () => ({ rolledBack: true }),
      }),
    });
    executor = createAdapterExecutor(
      reportingAdapter({
        created: [{ type: "Object", name: "Box", path: 'objects["Box"]' }],
        removed: [],
      }),
    );
    const renamed = await executor.execute('dispatch("make"); return 1');
    expect(renamed.stats.changes).toEqual({ created: ['objects["Box"]'], removed: [] });
    await executor.close();
    // Made and removed again within the script: the net report says nothing changed.
    executor = createAdapterExecutor(reportingAdapter({ created: [], removed: [] }));
    const none = await executor.execute('dispatch("make"); return 1');
    expect(none.stats.changes).toBeUndefined();
    await executor.close();
    // Without a net report, the commands' own reports are summed.
    executor = createAdapterExecutor(reportingAdapter(undefined));
    const summed = await executor.execute('dispatch("make"); return 1');
    expect(summed.stats.changes).toEqual({ created: ['objects["Cube.001"]'], removed: [] });
  });

  it("begins no transaction for a script that sends no host command", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const ok = await executor.execute("return 1 + 1");
    const failed = await executor.execute("throw new Error('no')");
    expect(ok.success).toBe(true);
    expect("transaction" in ok).toBe(false);
    expect(failed.success).toBe(false);
    expect("rollback" in failed).toBe(false);
    expect(adapter.events).toEqual([]);
  });

  it("rolls back a script that throws after changing the scene, and lists the files it wrote", async () => {
    const adapter = listAdapter();
    adapter.items = ["kept"];
    executor = createAdapterExecutor(adapter);
    const result = await executor.execute('dispatch("add", "a"); throw new Error("boom")');
    expect(result).toMatchObject({
      success: false,
      errorCode: "SCRIPT_ERROR",
      rollback: { rolledBack: true, filesWritten: ["renders/a.png"] },
    });
    expect(adapter.items).toEqual(["kept"]);
    expect(adapter.events).toEqual(["begin list script", "add a", "rollback"]);
  });

  it("keeps a failed script's changes as one undo step when asked", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const result = await executor.execute('dispatch("add", "a"); throw new Error("boom")', {
      keepPartialChanges: true,
    });
    expect(result).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "kept", undoStep: "list script" },
    });
    expect(adapter.items).toEqual(["a"]);
  });

  it("rolls back a cancelled script only after its running host command settled", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const controller = new AbortController();
    const running = executor.execute('dispatch("add", "a"); dispatch("hold", "stops"); return 1', {
      signal: controller.signal,
    });
    await adapter.held;
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
      rollback: { rolledBack: true },
    });
    // The held command ends on the abort; the rollback comes after it, never under it.
    expect(adapter.events).toEqual([
      "begin list script",
      "add a",
      "hold stops",
      "stopped",
      "rollback",
    ]);
    expect(adapter.items).toEqual([]);
  });

  it("rolls back a script past its timeout", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    await executor.execute("return 1"); // a started sandbox
    // The held command ends only when the timeout stops the script.
    const result = await executor.execute('dispatch("add", "a"); dispatch("hold", "stops")', {
      timeoutSecs: 2,
    });
    expect(result).toMatchObject({ success: false, errorCode: "TIMEOUT" });
    expect(adapter.items).toEqual([]);
    // Only a machine too loaded to start the script within the timeout reaches no host command.
    if (adapter.events.includes("add a")) {
      expect(result).toMatchObject({ rollback: { rolledBack: true } });
      expect(adapter.events.slice(-2)).toEqual(["stopped", "rollback"]);
    } else {
      expect(result).not.toHaveProperty("rollback");
    }
  });

  it("does not undo under a host command that never settles, and closes the step later", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter, { transactionWaitMs: 50 });
    const controller = new AbortController();
    const running = executor.execute('dispatch("hold", "b")', { signal: controller.signal });
    await adapter.held;
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "host_busy" },
    });
    expect(adapter.events).toEqual(["begin list script", "hold b"]);
    // Until the step is closed the script keeps the DCC: another change is refused, catchably.
    const refused = await executor.execute(
      'try { dispatch("add", "c"); return "ran"; } catch (e) { return [e.code, e.completion]; }',
    );
    expect(refused).toMatchObject({ success: true, output: ["HOST_BUSY", "not_started"] });
    adapter.release?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(adapter.events.at(-1)).toBe("commit");
    expect(await executor.execute('dispatch("add", "d"); return 1')).toMatchObject({
      success: true,
      transaction: { undoStep: "list script" },
    });
    expect(adapter.items).toEqual(["b", "d"]);
  });

  it("says an adapter without undo cannot roll back", async () => {
    const adapter = listAdapter({ undo: false });
    executor = createAdapterExecutor(adapter);
    expect(executor.rollsBack).toBe(false);
    const ok = await executor.execute('dispatch("add", "a")');
    const failed = await executor.execute('dispatch("add", "b"); throw new Error("boom")');
    expect(ok.success).toBe(true);
    expect("transaction" in ok).toBe(false);
    expect(failed).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "no_undo" },
    });
    expect(adapter.items).toEqual(["a", "b"]);
  });

  it("reports a transaction that could not begin, and still runs the script", async () => {
    const adapter = listAdapter({ beginFails: true });
    executor = createAdapterExecutor(adapter);
    const result = await executor.execute('dispatch("add", "a"); throw new Error("boom")');
    expect(result).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "failed" },
    });
    expect(result.success === false && result.rollback?.detail).toContain("the host is read-only");
    expect(adapter.items).toEqual(["a"]);
  });

  it("starts the next script's host commands only after the last script's rollback", async () => {
    const adapter = listAdapter({ scriptsAtOnce: 1 });
    const begin = adapter.beginTransaction;
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    // The first rollback waits for the gate: its sandbox is free by then, the scene is not.
    adapter.beginTransaction = async (options) => {
      const transaction = await (begin as NonNullable<typeof begin>)(options);
      return {
        commit: () => transaction.commit(),
        rollback: async () => {
          await gate;
          return transaction.rollback();
        },
      };
    };
    executor = createAdapterExecutor(adapter);
    const first = executor.execute('dispatch("add", "a"); throw new Error("first")');
    const second = executor.execute('dispatch("add", "b"); return 2');
    setTimeout(openGate, 50);
    expect(await first).toMatchObject({ rollback: { rolledBack: true } });
    expect(await second).toMatchObject({ success: true, transaction: { undoStep: "list script" } });
    expect(adapter.events).toEqual([
      "begin list script",
      "add a",
      "rollback",
      "begin list script",
      "add b",
      "commit",
    ]);
    expect(adapter.items).toEqual(["b"]);
  });

  it("runs a second script's changes only after the first's end, so each rolls back its own", async () => {
    const adapter = listAdapter({ scriptsAtOnce: 2 });
    executor = createAdapterExecutor(adapter);
    // The first script holds the DCC from its first change to its rollback; the second's first
    // change waits for that.
    const first = executor.execute('dispatch("hold", "a"); throw new Error("first")');
    await adapter.held;
    const second = executor.execute('dispatch("add", "b"); throw new Error("second")');
    adapter.release?.();
    for (const result of await Promise.all([first, second])) {
      expect(result).toMatchObject({ success: false, rollback: { rolledBack: true } });
    }
    expect(adapter.events).toEqual([
      "begin list script",
      "hold a",
      "released a",
      "rollback",
      "begin list script",
      "add b",
      "rollback",
    ]);
    expect(adapter.items).toEqual([]);
  });
});
