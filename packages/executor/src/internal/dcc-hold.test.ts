import { DccApiCatalog } from "@dcc/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { createAdapterExecutor } from "../create-adapter-executor.ts";
import type { DccAdapter } from "../dcc-adapter.ts";
import type { DccApiExecutor } from "../dcc-api-executor.ts";
import type { ExecuteResult } from "../execute-result.ts";
import { ToolRegistry } from "../tool-registry.ts";

const laneModule = new URL("../__fixtures__/test-lane.ts", import.meta.url).href;

interface ListHost {
  items: string[];
  events: string[];
  /** While set, a rollback waits for it (a slow undo). */
  rollbackGate: Promise<void> | undefined;
  /** Settles when a rollback has started. */
  rollbackStarted: Promise<void>;
}

/**
 * An in-memory DCC whose scene is a list: `add` changes it, `list` and `lane.echo` read it (the
 * latter also on the sandbox thread's lane), and every script is a transaction.
 */
function listAdapter(): DccAdapter & ListHost {
  let rollbackStarted: () => void = () => {};
  const adapter: DccAdapter & ListHost = {
    dccName: "list",
    // Enough sandboxes for the scripts each test runs at once, whatever the machine's cores.
    scriptsAtOnce: 3,
    items: [],
    events: [],
    rollbackGate: undefined,
    rollbackStarted: new Promise((resolve) => {
      rollbackStarted = resolve;
    }),
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
        name: "list",
        readOnly: true,
        handler: () => {
          adapter.events.push("list");
          return [...adapter.items];
        },
      },
      {
        name: "lane.echo",
        readOnly: true,
        handler: () => ({ via: "main", items: [...adapter.items] }),
      },
    ],
    dispatchLane: () => ({
      module: laneModule,
      data: { host: "one" },
      commands: ["lane.echo"],
      key: "one",
    }),
    catalog: () => new DccApiCatalog("list", { catalogText: "add - Add an item" }),
    beginTransaction: async ({ label }) => {
      const before = [...adapter.items];
      adapter.events.push(`begin ${label}`);
      return {
        commit: async () => {
          adapter.events.push("commit");
          return { rolledBack: false, undoStep: label };
        },
        rollback: async () => {
          adapter.events.push("rollback");
          rollbackStarted();
          await adapter.rollbackGate;
          adapter.items = before;
          adapter.events.push("rolled back");
          return { rolledBack: true };
        },
      };
    },
  };
  return adapter;
}

/** Resolves once `predicate` holds; a generous hang guard, never the verdict. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!predicate()) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

describe("a script holds the DCC only while it must", { timeout: 90_000 }, () => {
  it("runs a script that never calls the DCC while another script runs", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const controller = new AbortController();
    // Compute only, until cancelled; then a script that holds the DCC until cancelled.
    const spinning = executor.execute("for (;;) {}", { signal: controller.signal });
    expect(await executor.execute("return 1 + 1")).toMatchObject({ success: true, output: 2 });
    controller.abort();
    expect(await spinning).toMatchObject({ errorCode: "CANCELLED" });

    const holding = new AbortController();
    const holder = executor.execute('dispatch("add", "a"); for (;;) {}', {
      signal: holding.signal,
    });
    await until(() => adapter.events.includes("add a"), "the first script changed the scene");
    expect(await executor.execute("return 1 + 1")).toMatchObject({ success: true, output: 2 });
    holding.abort();
    expect(await holder).toMatchObject({ errorCode: "CANCELLED", rollback: { rolledBack: true } });
  });

  it("runs other scripts' reads between the holder's commands, without a transaction", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const controller = new AbortController();
    const holder = executor.execute('dispatch("add", "a"); for (;;) {}', {
      signal: controller.signal,
    });
    await until(() => adapter.events.includes("add a"), "the first script changed the scene");
    // The holder's change is visible before it is committed (or, here, rolled back).
    const read = await executor.execute('return dispatch("list")');
    expect(read).toMatchObject({ success: true, output: ["a"] });
    expect(read).not.toHaveProperty("transaction");
    controller.abort();
    expect(await holder).toMatchObject({ rollback: { rolledBack: true } });
    expect(adapter.events).toEqual([
      "begin list script",
      "add a",
      "list",
      "rollback",
      "rolled back",
    ]);
    expect(adapter.items).toEqual([]);
  });

  it("lets another script change the scene only after the holder's end", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const controller = new AbortController();
    const holder = executor.execute('dispatch("add", "a"); for (;;) {}', {
      signal: controller.signal,
    });
    await until(() => adapter.events.includes("add a"), "the first script changed the scene");
    const second = executor.execute(
      'dispatch("list"); dispatch("add", "b"); return dispatch("list")',
    );
    // The second script's read ran; its change waits for the holder.
    await until(() => adapter.events.includes("list"), "the second script read the scene");
    expect(adapter.events).not.toContain("add b");
    controller.abort();
    expect(await holder).toMatchObject({ rollback: { rolledBack: true } });
    expect(await second).toMatchObject({ success: true, output: ["b"] });
    expect(adapter.events).toEqual([
      "begin list script",
      "add a",
      "list",
      "rollback",
      "rolled back",
      "begin list script",
      "add b",
      "list",
      "commit",
    ]);
  });

  it("stops a script that waited for the DCC past its timeout as never having started its change", async () => {
    const adapter = listAdapter();
    executor = createAdapterExecutor(adapter);
    const on = executor;
    // Two started sandboxes, so the second script is not still waiting for one at its timeout.
    await Promise.all([on.execute("return 1"), on.execute("return 2")]);
    const controller = new AbortController();
    const holder = executor.execute('dispatch("add", "a"); for (;;) {}', {
      signal: controller.signal,
    });
    await until(() => adapter.events.includes("add a"), "the first script changed the scene");
    const waited = await executor.execute('dispatch("add", "b")', { timeoutSecs: 2 });
    expect(waited).toMatchObject({ success: false, errorCode: "TIMEOUT" });
    // Not `unknown`: the waiting command is known never to have reached the DCC.
    expect(["complete", "not_started"]).toContain(waited.completion);
    expect(waited).not.toHaveProperty("rollback");
    controller.abort();
    expect(await holder).toMatchObject({ rollback: { rolledBack: true } });
    // The waiting change never ran, and no transaction was begun for it.
    expect(adapter.events).toEqual(["begin list script", "add a", "rollback", "rolled back"]);
  });

  type Stop = (script: string, on: DccApiExecutor, adapter: ListHost) => Promise<ExecuteResult>;
  const stops: Array<[string, Stop]> = [
    [
      "cancelled",
      async (script, on, adapter) => {
        const controller = new AbortController();
        const running = on.execute(script, { signal: controller.signal });
        await until(() => adapter.events.includes("add b"), "the script changed the scene");
        controller.abort();
        return running;
      },
    ],
    ["timed out", (script, on) => on.execute(script, { timeoutSecs: 2 })],
  ];
  for (const [how, run] of stops) {
    it(`finishes a ${how} script's rollback before a later script reads, on the main thread or the lane`, async () => {
      const adapter = listAdapter();
      executor = createAdapterExecutor(adapter);
      await executor.execute("return 1"); // a started sandbox, with its lane open
      const slow = gate();
      adapter.rollbackGate = slow.promise;
      const stopped = run(
        'dispatch("add", "a"); dispatch("add", "b"); for (;;) {}',
        executor,
        adapter,
      );
      await adapter.rollbackStarted;
      // Both reads are sent while the rollback is under way; both wait for it.
      const ready: string[] = [];
      const onLog = (entry: { message: string }): void => {
        ready.push(entry.message);
      };
      const read = executor.execute('console.log("list"); return dispatch("list")', { onLog });
      const onLane = executor.execute('console.log("lane"); return dispatch("lane.echo")', {
        onLog,
      });
      await until(() => ready.length === 2, "both readers started");
      // Each dispatches right after its log; a grace for a loaded machine to let them reach it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      slow.open();
      expect(await stopped).toMatchObject({ success: false, rollback: { rolledBack: true } });
      expect(await read).toMatchObject({ success: true, output: [] });
      // Not answered on the sandbox thread's lane while the DCC was sealed.
      expect(await onLane).toMatchObject({ success: true, output: { via: "main", items: [] } });
      expect(adapter.events.indexOf("list")).toBeGreaterThan(adapter.events.indexOf("rolled back"));
      // Once the DCC is open again, the lane answers as before.
      expect(await executor.execute('return dispatch("lane.echo")')).toMatchObject({
        output: { via: "lane" },
      });
    });
  }

  it("refuses a command whose readOnly is not a boolean", () => {
    expect(() =>
      new ToolRegistry().register({
        name: "odd",
        handler: () => 1,
        readOnly: "yes" as unknown as boolean,
      }),
    ).toThrow(
      expect.objectContaining({
        code: "INVALID_COMMAND",
        message: expect.stringContaining("readOnly of command odd"),
      }),
    );
  });
});
