import { dirname } from "node:path";
import { linkPythonPath } from "@dcc/link";
import { afterEach, describe, expect, it } from "vitest";
import { kitHostScript, python } from "./__fixtures__/python.ts";
import { waitUntil } from "./__fixtures__/wait.ts";
import {
  createLinkedAdapter,
  type LinkedAdapter,
  type LinkedAdapterOptions,
} from "./create-linked-adapter.ts";

const open: LinkedAdapter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((adapter) => adapter.close()));
});

async function start(transaction?: LinkedAdapterOptions["transaction"]): Promise<LinkedAdapter> {
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
