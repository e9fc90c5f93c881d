import { dirname } from "node:path";
import { createAdapterExecutor, type DccApiExecutor } from "@dcc/executor";
import { linkPythonPath } from "@dcc/link";
import { afterEach, describe, expect, it } from "vitest";
import { kitHostScript, kitSpecsFile, python } from "./__fixtures__/python.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedAdapterOptions,
} from "./create-linked-adapter.ts";
import { type LinkedCommandSpec, readCommandSpecs } from "./linked-command-spec.ts";

const open: LinkedAdapter[] = [];
const executors: DccApiExecutor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.close()));
  await Promise.all(open.splice(0).map((adapter) => adapter.close()));
});

/** The kit's specs plus its scene of objects: `kit.add` changes it, `kit.count` reads it. */
const sceneSpecs: readonly LinkedCommandSpec[] = [
  ...readCommandSpecs(kitSpecsFile),
  {
    name: "kit.add",
    signature: "kit.add(seconds?: number): number",
    description: "Makes one object, taking `seconds`; answers how many there are.",
  },
  {
    name: "kit.count",
    signature: "kit.count(): number",
    description: "How many objects there are.",
    lane: true,
  },
];

async function start(
  transaction?: LinkedAdapterOptions["transaction"],
  specs?: readonly LinkedCommandSpec[],
): Promise<LinkedAdapter> {
  const adapter = createLinkedAdapter({
    dccName: "kit",
    displayName: "KitDCC",
    // In the OS sandbox (on by default where it runs) the host's script must be visible.
    launch: () => ({
      command: python,
      args: ["-S", kitHostScript],
      env: { PYTHONPATH: linkPythonPath() },
      sandboxPaths: { readOnly: [dirname(kitHostScript)] },
    }),
    transaction,
    specs,
  });
  open.push(adapter);
  await adapter.start({ signal: new AbortController().signal, reportHost: () => undefined });
  return adapter;
}

const options = { label: "dcc_execute: test", signal: new AbortController().signal };
const methods = { begin: "tx.begin", end: "tx.end" };

describe("a linked adapter's transaction", () => {
  it("is offered only with the DCC's methods", async () => {
    expect((await start()).beginTransaction).toBeUndefined();
  });

  it("rolls back through the DCC's end method", async () => {
    const adapter = await start(methods);
    await adapter.call("state.set", { value: 1 });
    const transaction = await adapter.beginTransaction?.(options);
    await adapter.call("state.set", { value: 2 });
    expect(await transaction?.rollback()).toEqual({ rolledBack: true });
    expect(await adapter.call("state.get")).toBe(1);
    // Once only: a second end answers the first report without asking the DCC again.
    expect(await transaction?.commit()).toEqual({ rolledBack: true });
  });

  it("commits as one undo step named after the call", async () => {
    const adapter = await start(methods);
    const transaction = await adapter.beginTransaction?.(options);
    await adapter.call("state.set", { value: 5 });
    expect(await transaction?.commit()).toEqual({
      rolledBack: false,
      undoStep: "dcc_execute: test",
    });
    expect(await adapter.call("state.get")).toBe(5);
  });

  it("does not ask a DCC restarted since begin", async () => {
    const adapter = await start(methods);
    const transaction = await adapter.beginTransaction?.(options);
    const events: string[] = [];
    adapter.onEvent((event) => events.push(event.type));
    process.kill(adapter.pid as number, "SIGKILL");
    await waitUntil(() => events.includes("restart"), "the DCC restarted");
    expect(await transaction?.rollback()).toEqual({
      rolledBack: false,
      reason: "host_restarted",
      detail: "KitDCC was restarted during the script; its scene is a new one",
    });
  });

  it("reports an end that answers no report as failed", async () => {
    const adapter = await start({ begin: "tx.begin", end: "tx.odd" });
    const transaction = await adapter.beginTransaction?.(options);
    expect(await transaction?.rollback()).toEqual({
      rolledBack: false,
      reason: "failed",
      detail: 'tx.odd answered "not a report", not a transaction report',
    });
  });

  it("fails begin with the DCC's error", async () => {
    const adapter = await start({ begin: "tx.missing", end: "tx.end" });
    await expect(adapter.beginTransaction?.(options)).rejects.toMatchObject({
      code: "UNKNOWN_METHOD",
    });
  });
});

describe("a linked adapter's scripts", { timeout: 120_000 }, () => {
  /** The adapter's executor, closed after the test. */
  function executorOf(adapter: LinkedAdapter): DccApiExecutor {
    const executor = createAdapterExecutor(adapter);
    executors.push(executor);
    return executor;
  }

  it("finish a cancelled script's rollback before the next script reads the scene", async () => {
    const adapter = await start(methods, sceneSpecs);
    const executor = executorOf(adapter);
    // A started sandbox, its lane to the DCC open (`kit.count` runs on it).
    expect(await executor.execute('return dispatch("kit.count")')).toMatchObject({ output: 0 });
    const made: string[] = [];
    const controller = new AbortController();
    const loop = executor.execute('for (;;) console.log(dispatch("kit.add", { seconds: 0.3 }))', {
      signal: controller.signal,
      onLog: (entry) => made.push(entry.message),
    });
    await waitUntil(() => made.length >= 3, "the loop made three objects");
    controller.abort();
    // Sent at once: the loop's last command is still running in the DCC, its rollback to come.
    const next = await executor.execute('return dispatch("kit.count")');
    expect(await loop).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
      rollback: { rolledBack: true },
    });
    expect(next).toMatchObject({ success: true, output: 0 });
  });

  it("answer host_restarted themselves, and send the new DCC nothing, when a script caught the HOST_GONE of a killed DCC", async () => {
    const adapter = await start(methods, sceneSpecs);
    const executor = executorOf(adapter);
    const first = adapter.pid as number;
    const running = executor.execute(
      'try { dispatch("kit.wait"); return "no error"; } catch (e) { return e.code; }',
    );
    await waitUntil(() => adapter.output.includes("WAITING"), "kit.wait runs");
    process.kill(first, "SIGKILL");
    const result = await running;
    expect(result).toMatchObject({
      success: true,
      output: "HOST_GONE",
      transaction: {
        rolledBack: false,
        reason: "host_restarted",
        detail: "KitDCC was restarted during the script; its scene is a new one",
      },
    });
    // The restarted DCC never heard of the transaction: neither its begin nor its end.
    expect(await adapter.call("tx.calls")).toEqual([]);
    expect(adapter.pid).not.toBe(first);
  });

  it("stop using their dispatch lane once the DCC's process has exited, though the DCC outlived it", async () => {
    // The DCC runs under a wrapper process (as under bubblewrap): killing the wrapper, which is
    // the process the adapter launched, leaves the DCC itself answering for a while. Here it
    // never ends by itself (no watchdog), and the lane's connection to it stays open.
    const adapter = createLinkedAdapter({
      dccName: "kit",
      displayName: "KitDCC",
      launch: () => ({
        command: "/bin/sh",
        args: ["-c", `env -u DCC_LINK_WATCHDOG_FD "${python}" -S "${kitHostScript}" 3<&- & wait`],
        env: { PYTHONPATH: linkPythonPath() },
        sandbox: "off",
        // The adapter's close ends the whole group: the DCC of the last launch too.
        processGroup: true,
      }),
      specs: sceneSpecs,
    });
    open.push(adapter);
    await adapter.start({ signal: new AbortController().signal, reportHost: () => undefined });
    const executor = executorOf(adapter);
    const dcc = await executor.execute(
      'dispatch("kit.add"); dispatch("kit.add"); return dispatch("kit.pid")',
    );
    if (!dcc.success) throw new Error(`the set-up script failed: ${dcc.error}`);
    const outliving = dcc.output as number;
    try {
      const running = executor.execute(`
        const before = dispatch("kit.count");
        let gone;
        try { dispatch("kit.wait"); } catch (e) { gone = e.code; }
        let after;
        try { after = { value: dispatch("kit.count") }; } catch (e) { after = { code: e.code }; }
        return { before, gone, after };
      `);
      await waitUntil(() => adapter.output.includes("WAITING"), "kit.wait runs");
      process.kill(adapter.pid as number, "SIGKILL");
      const result = await running;
      if (!result.success) throw new Error(`the script failed: ${result.error}`);
      const { before, gone, after } = result.output as {
        before: number;
        gone: string;
        after: { value?: number; code?: string };
      };
      // The lane answered while the DCC was the adapter's ...
      expect(before).toBe(2);
      expect(gone).toBe("HOST_GONE");
      // ... and no longer once its process had exited: the read went through the main thread,
      // which said the DCC was gone or, once restarted, read the new DCC's empty scene; never the
      // old scene's two objects from the DCC that outlived its process.
      expect([{ code: "HOST_GONE" }, { value: 0 }]).toContainEqual(after);
    } finally {
      if (processAlive(outliving)) process.kill(outliving, "SIGKILL");
    }
  });

  it("name the script's command, not the transaction's begin, in a restart notice", async () => {
    const adapter = await start(methods, sceneSpecs);
    const executor = executorOf(adapter);
    expect(await executor.execute('return dispatch("kit.add")')).toMatchObject({ output: 1 });
    const events: string[] = [];
    adapter.onEvent((event) => events.push(event.type));
    process.kill(adapter.pid as number, "SIGKILL");
    await waitUntil(() => events.includes("restart"), "the DCC restarted");
    const result = await executor.execute(
      'try { dispatch("kit.add"); return "ran"; } catch (e) { return [e.code, e.message]; }',
    );
    if (!result.success) throw new Error(`the script failed: ${result.error}`);
    const [code, message] = result.output as [string, string];
    expect(code).toBe("HOST_GONE");
    expect(message).toMatch(/^kit\.add did not run: since the last command, KitDCC exited/);
    expect(message).not.toContain("tx.begin");
    // Told once; the next script's change begins a transaction on the new DCC.
    expect(await executor.execute('return dispatch("kit.add")')).toMatchObject({
      output: 1,
      transaction: { rolledBack: false, undoStep: "kit script" },
    });
  });
});
