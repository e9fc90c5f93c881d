import { DccApiCatalog } from "@dcc/catalog";
import { describe, expect, it } from "vitest";
import { AGENT_QUERIES } from "./__fixtures__/agent-queries.ts";
import { BROAD_AGENT_QUERIES } from "./__fixtures__/agent-queries-broad.ts";
import { createMayaCatalog } from "./maya-catalog.ts";
import { mayaCommands } from "./maya-commands.ts";
import { MAYA_SYNONYMS } from "./maya-synonyms.ts";

type QuerySet = readonly { query: string; expected: readonly string[] }[];

/** Share of queries whose expected command is among the first `k` results. */
function recallAt(
  catalog: DccApiCatalog,
  k: number,
  queries: QuerySet = AGENT_QUERIES,
): { recall: number; misses: string[] } {
  const misses: string[] = [];
  for (const { query, expected } of queries) {
    const names = catalog.search(query, { limit: k }).map((record) => record.name);
    if (!expected.some((name) => names.includes(name)))
      misses.push(`${query} -> ${names.join(", ")}`);
  }
  return { recall: 1 - misses.length / queries.length, misses };
}

describe("the Maya command data", () => {
  it("holds all 1,469 commands, each with a signature, flags and a return type", () => {
    const commands = mayaCommands();
    expect(commands).toHaveLength(1469);
    expect(new Set(commands.map((command) => command.name)).size).toBe(1469);
    for (const command of commands) {
      expect(command.signature.startsWith(`${command.name}(`), command.name).toBe(true);
      expect(Array.isArray(command.flags), command.name).toBe(true);
      expect(typeof command.returns, command.name).toBe("string");
    }
    expect(
      commands.filter((command) => command.description !== undefined).length,
    ).toBeGreaterThanOrEqual(300);
  });

  it("is read once and frozen", () => {
    expect(mayaCommands()).toBe(mayaCommands());
    expect(Object.isFrozen(mayaCommands()[0])).toBe(true);
  });
});

describe("createMayaCatalog", () => {
  it("loads every record into a DccApiCatalog, extra fields kept", () => {
    const catalog = createMayaCatalog();
    expect(catalog).toBeInstanceOf(DccApiCatalog);
    expect(catalog.dccName).toBe("maya");
    expect(catalog.size).toBe(1469);
    for (const command of mayaCommands())
      expect(catalog.get(command.name)?.name).toBe(command.name);
    expect(catalog.get("polySphere")).toMatchObject({
      returns: "string[]",
      queryable: true,
      editable: true,
      description: expect.stringContaining("polygon sphere"),
    });
    expect(catalog.get("ls")?.["flags"]).toContain("type");
  });

  it("can leave the descriptions out and use the overlap ranker", () => {
    const bare = createMayaCatalog({ withoutDescriptions: true, ranker: "overlap" });
    expect(bare.ranker).toBe("overlap");
    expect([...bare].every((record) => !record.description)).toBe(true);
    const names = bare.search("polySphere", { limit: 10 }).map((record) => record.name);
    expect(names).toContain("polySphere");
  });

  it("finds commands by flags their shortened signatures leave out", () => {
    const catalog = createMayaCatalog();
    for (const [flag, command] of [
      ["undeletable", "ls"],
      ["shakeOverscan", "camera"],
      ["macOS", "about"],
    ] as const) {
      expect(catalog.get(command)?.signature, flag).not.toContain(`${flag}?:`);
      expect(catalog.get(command)?.["flags"], flag).toContain(flag);
      expect(catalog.search(flag, { limit: 1 })[0]?.name, flag).toBe(command);
    }
  });

  it("adds caller synonyms to the Maya ones", () => {
    const catalog = createMayaCatalog({ synonyms: { globe: ["sphere"] } });
    expect(catalog.search("globe", { limit: 3 }).map((record) => record.name)).toContain(
      "polySphere",
    );
    const without = createMayaCatalog().search("globe", { limit: 3 });
    expect(without.map((record) => record.name)).not.toContain("polySphere");
  });
});

describe("MAYA_SYNONYMS", () => {
  it("maps single lower-case words to other words", () => {
    for (const [key, words] of Object.entries(MAYA_SYNONYMS)) {
      expect(words.length, key).toBeGreaterThan(0);
      for (const word of [key, ...words]) expect(word, key).toMatch(/^[a-z]+$/);
      expect(words, key).not.toContain(key);
    }
  });

  it("finds what Maya names differently", () => {
    const catalog = createMayaCatalog();
    const top3 = (query: string): string[] =>
      catalog.search(query, { limit: 3 }).map((r) => r.name);
    expect(top3("freeze transformations")).toContain("makeIdentity");
    expect(top3("look through a camera")).toContain("lookThru");
  });
});

describe("search quality for agent-style queries", () => {
  const catalog = createMayaCatalog();

  it.each([
    ["create a sphere", "polySphere"],
    ["parent an object", "parent"],
    ["set a keyframe", "setKeyframe"],
  ])("%s -> %s in the top 3", (query, expected) => {
    const names = catalog.search(query, { limit: 3 }).map((record) => record.name);
    expect(names).toContain(expected);
  });

  it("assign a material -> sets or hyperShade in the top 3", () => {
    const names = catalog.search("assign a material", { limit: 3 }).map((record) => record.name);
    expect(names.some((name) => name === "sets" || name === "hyperShade")).toBe(true);
  });

  it(`reaches recall@5 >= 0.95 on ${AGENT_QUERIES.length} queries`, () => {
    expect(AGENT_QUERIES.length).toBeGreaterThanOrEqual(30);
    const at5 = recallAt(catalog, 5);
    const at1 = recallAt(catalog, 1);
    const bare = recallAt(createMayaCatalog({ withoutDescriptions: true }), 5);
    console.info(
      `maya catalog: recall@1 ${at1.recall.toFixed(3)}, recall@5 ${at5.recall.toFixed(3)}; ` +
        `without descriptions recall@5 ${bare.recall.toFixed(3)} (${AGENT_QUERIES.length} queries)\n` +
        `misses@5: ${at5.misses.join(" | ") || "none"}`,
    );
    expect(at5.recall, at5.misses.join("\n")).toBeGreaterThanOrEqual(0.95);
  });
});

describe("search quality on the broad agent-query set", () => {
  // The catalog dcc_search searches: the Maya adapter's default.
  const catalog = createMayaCatalog();

  it("spans the catalog: at least 200 queries over at least 15 areas, a quarter on secondary uses", () => {
    const names = new Set(mayaCommands().map((command) => command.name));
    expect(BROAD_AGENT_QUERIES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(BROAD_AGENT_QUERIES.map((entry) => entry.query)).size).toBe(
      BROAD_AGENT_QUERIES.length,
    );
    expect(new Set(BROAD_AGENT_QUERIES.map((entry) => entry.area)).size).toBeGreaterThanOrEqual(15);
    const secondary = BROAD_AGENT_QUERIES.filter((entry) => entry.secondaryUse).length;
    expect(secondary).toBeGreaterThanOrEqual(BROAD_AGENT_QUERIES.length / 4);
    for (const { query, expected } of BROAD_AGENT_QUERIES) {
      expect(expected.length, query).toBeGreaterThan(0);
      for (const name of expected) expect(names, `${query}: ${name}`).toContain(name);
    }
  });

  it(`reaches recall@5 >= 0.92 on ${BROAD_AGENT_QUERIES.length} queries`, () => {
    const at5 = recallAt(catalog, 5, BROAD_AGENT_QUERIES);
    const at1 = recallAt(catalog, 1, BROAD_AGENT_QUERIES);
    const secondary = recallAt(
      catalog,
      5,
      BROAD_AGENT_QUERIES.filter((entry) => entry.secondaryUse),
    );
    console.info(
      `maya catalog, broad set: recall@1 ${at1.recall.toFixed(3)}, recall@5 ${at5.recall.toFixed(3)}; ` +
        `secondary uses recall@5 ${secondary.recall.toFixed(3)} (${BROAD_AGENT_QUERIES.length} queries)\n` +
        `misses@5: ${at5.misses.join(" | ") || "none"}`,
    );
    expect(at5.recall, at5.misses.join("\n")).toBeGreaterThanOrEqual(0.92);
  });

  it("corrects two misspelt words in one query", () => {
    const names = (query: string): string[] =>
      catalog.search(query, { limit: 5 }).map((record) => record.name);
    expect(names("craete a spehre")).toContain("polySphere");
    expect(names("conect atributes")[0]).toBe("connectAttr");
    expect(names("freze transfroms")).toContain("makeIdentity");
  });
});
