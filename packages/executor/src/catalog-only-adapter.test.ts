import { DccApiCatalog } from "@dcc/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalogOnlyAdapter } from "./catalog-only-adapter.ts";
import { createAdapterExecutor } from "./create-adapter-executor.ts";
import type { DccAdapter } from "./dcc-adapter.ts";
import type { DccApiExecutor } from "./dcc-api-executor.ts";

/** A DCC whose host counts what reached it: starts, closes and commands. */
function hostAdapter(): DccAdapter & { reached: string[] } {
  const reached: string[] = [];
  return {
    dccName: "counter",
    reached,
    scriptsAtOnce: 1,
    start: async () => {
      reached.push("start");
    },
    close: async () => {
      reached.push("close");
    },
    beginTransaction: async () => {
      reached.push("transaction");
      return { commit: async () => ({}), rollback: async () => ({}) } as never;
    },
    commands: () => [
      {
        name: "increment",
        signature: "increment(by?: number): number",
        description: "Add to the counter and return it",
        handler: () => {
          reached.push("increment");
          return 1;
        },
      },
    ],
    catalog: () => new DccApiCatalog("counter", { catalogText: "increment - Add to the counter" }),
    instructions: (tools) => `Counter: search with ${tools.search}`,
    executeDescription: (tools) => `Count things with ${tools.execute}`,
  };
}

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

describe("createCatalogOnlyAdapter", { timeout: 60_000 }, () => {
  it("serves the adapter's catalog, commands and texts, and has no start or close", () => {
    const full = hostAdapter();
    const adapter = createCatalogOnlyAdapter(full, { reason: "scripts run on the farm" });
    const tools = { search: "dcc_search", execute: "dcc_execute" };
    expect(adapter.dccName).toBe("counter");
    expect(adapter.scriptsAtOnce).toBe(1);
    expect(adapter.start).toBeUndefined();
    expect(adapter.close).toBeUndefined();
    expect(adapter.dispatchLane).toBeUndefined();
    expect(adapter.instructions?.(tools)).toBe(full.instructions?.(tools));
    expect(adapter.executeDescription?.(tools)).toBe(full.executeDescription?.(tools));
    const strip = ({ handler: _handler, ...rest }: { handler: unknown }) => rest;
    expect(adapter.commands().map(strip)).toEqual(full.commands().map(strip));
    expect(adapter.catalog().search("increment")).toEqual(full.catalog().search("increment"));
    // A host with undo keeps one, so a server's texts do not say "no undo".
    expect(adapter.beginTransaction).toBeDefined();
    expect(full.reached).toEqual([]);
  });

  it("refuses every host command with CATALOG_ONLY and the reason, reaching no host", async () => {
    const full = hostAdapter();
    executor = createAdapterExecutor(
      createCatalogOnlyAdapter(full, { reason: "scripts run on the farm" }),
    );
    const result = await executor.execute(
      'try { dispatch("increment"); } catch (e) { return { code: e.code, message: e.message, completion: e.completion }; }',
    );
    expect(result).toMatchObject({
      success: true,
      output: {
        code: "CATALOG_ONLY",
        message:
          "No counter command runs on this server: it serves the catalog only (scripts run on the farm)",
        completion: "not_started",
      },
    });
    expect(full.reached).toEqual([]);
    expect(executor.search("increment")).toMatchObject({ success: true });
  });

  it("leaves out what the adapter does not have", () => {
    const {
      beginTransaction: _b,
      instructions: _i,
      executeDescription: _e,
      ...bare
    } = hostAdapter();
    const adapter = createCatalogOnlyAdapter(bare);
    expect(adapter.beginTransaction).toBeUndefined();
    expect(adapter.instructions).toBeUndefined();
    expect(adapter.executeDescription).toBeUndefined();
  });
});
