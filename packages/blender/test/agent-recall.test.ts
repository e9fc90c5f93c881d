import { describe, expect, it } from "vitest";
import { createBlenderCatalog } from "../src/blender-catalog.ts";
import { AGENT_QUERIES, recallAt } from "./recall.ts";

describe("search quality on agent-style queries", () => {
  const catalog = createBlenderCatalog();

  it("covers every area of the catalog with queries whose expected commands exist", () => {
    expect(AGENT_QUERIES.length).toBeGreaterThanOrEqual(120);
    for (const { query, expected } of AGENT_QUERIES) {
      for (const name of expected) expect(catalog.get(name), `${query}: ${name}`).toBeDefined();
    }
    const modules = new Set(AGENT_QUERIES.flatMap((q) => q.expected.map((n) => n.split(".")[0])));
    for (const module of [
      "mesh",
      "object",
      "view3d",
      "anim",
      "render",
      "wm",
      "node",
      "uv",
      "data",
    ]) {
      expect(modules, module).toContain(module);
    }
  });

  it(`reaches recall@5 >= 0.9 on the ${AGENT_QUERIES.length} queries`, () => {
    const at1 = recallAt(catalog, 1);
    const at5 = recallAt(catalog, 5);
    console.info(
      `blender catalog: recall@1 ${at1.recall.toFixed(3)}, recall@5 ${at5.recall.toFixed(3)} ` +
        `(${AGENT_QUERIES.length} queries)\nmisses@5: ${at5.misses.join(" | ") || "none"}`,
    );
    expect(at5.recall, at5.misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  });
});
