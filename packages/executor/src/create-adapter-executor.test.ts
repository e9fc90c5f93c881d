import { DccApiCatalog } from "@dcc/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { createAdapterExecutor } from "./create-adapter-executor.ts";
import type { DccAdapter } from "./dcc-adapter.ts";
import type { DccApiExecutor } from "./dcc-api-executor.ts";

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
});
