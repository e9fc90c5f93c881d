import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CommandRecord } from "../command-record.ts";
import { DccApiCatalog } from "../dcc-api-catalog.ts";
import { compareCodePoints } from "./compare-code-points.ts";
import { overlapHaystack, overlapTokens } from "./overlap-search.ts";

// The acceptance table of the upstream notes, run through the public API with ranker "overlap".
const base: CommandRecord[] = [
  { name: "polySphere", description: "Create a polygon sphere" },
  { name: "polyCube", description: "Create a polygon cube" },
  { name: "xform", description: "Transform objects" },
];

function names(catalog: DccApiCatalog, query: string, limit?: number): string[] {
  return catalog.search(query, limit === undefined ? {} : { limit }).map((record) => record.name);
}

describe("overlap ranker (upstream acceptance cases)", () => {
  const catalog = new DccApiCatalog("maya", { commands: base, ranker: "overlap" });

  it.each([
    ["polygon sphere", ["polySphere", "polyCube"]],
    ["create", ["polyCube", "polySphere"]],
    ["cub", ["polyCube"]],
    ["the a of", []],
    ["", []],
    ["SPHERE sphere Sphere", ["polySphere"]],
    ["poly_sphere", []],
    ["poly-sphere", ["polySphere", "polyCube"]],
    ["it's nothing", ["polySphere", "xform"]],
  ])("%j on the base catalog", (query, expected) => {
    expect(names(catalog, query)).toEqual(expected);
  });

  it("rejects the limits upstream sliced with (0 and -1) instead of returning odd slices", () => {
    expect(() => catalog.search("poly", { limit: 0 })).toThrow(/integer from 1 to 50/);
    expect(() => catalog.search("poly", { limit: -1 })).toThrow(/integer from 1 to 50/);
    expect(names(catalog, "poly", 1)).toEqual(["polyCube"]);
  });

  it("finds nothing for unrelated words", () => {
    const single = new DccApiCatalog("maya", {
      commands: [{ name: "polySphere", description: "sphere" }],
      ranker: "overlap",
    });
    expect(names(single, "totally unrelated xyz")).toEqual([]);
  });

  it("searches catalog text entries", () => {
    const text = new DccApiCatalog("maya", {
      catalogText: "polySphere - Create polygon sphere\nxform - Transform",
      ranker: "overlap",
    });
    expect(names(text, "transform")).toContain("xform");
    expect(text.size).toBe(2);
  });

  it("orders equal scores by name and applies the limit", () => {
    const commands = Array.from({ length: 20 }, (_, index) => ({
      name: `tool_${index}`,
      description: "polygon mesh",
    }));
    const tools = new DccApiCatalog("maya", { commands, ranker: "overlap" });
    expect(names(tools, "polygon", 5)).toEqual([
      "tool_0",
      "tool_1",
      "tool_10",
      "tool_11",
      "tool_12",
    ]);
  });

  it("sorts names by code point: upper case, then _, then lower case", () => {
    const commands = ["b", "B", "a", "_z"].map((name) => ({ name, description: "mesh" }));
    const sorted = new DccApiCatalog("maya", { commands, ranker: "overlap" });
    expect(names(sorted, "mesh")).toEqual(["B", "_z", "a", "b"]);
  });

  it("puts records before catalog text and counts both", () => {
    const mixed = new DccApiCatalog("maya", {
      commands: [{ name: "z", description: "mesh" }],
      catalogText: "a - mesh",
      ranker: "overlap",
    });
    expect(names(mixed, "mesh")).toEqual(["a", "z"]);
    expect(mixed.size).toBe(2);
  });

  it("matches through the signature", () => {
    const signed = new DccApiCatalog("maya", {
      commands: [{ name: "n", signature: "n(radius=1)", description: "d" }],
      ranker: "overlap",
    });
    expect(names(signed, "radius")).toEqual(["n"]);
  });

  it("splits Unicode words as Python does", () => {
    const unicode = new DccApiCatalog("maya", {
      commands: [{ name: "café", description: "naïve résumé" }],
      ranker: "overlap",
    });
    expect(names(unicode, "naïve+café")).toEqual(["café"]);
  });

  it("keeps a nameless record and sorts it as the empty name", () => {
    const nameless = new DccApiCatalog("maya", {
      commands: [{ description: "mesh thing" } as unknown as CommandRecord, { name: "m" }],
      ranker: "overlap",
    });
    expect(names(nameless, "m")).toEqual(["", "m"]);
  });

  it("orders astral names after U+E000..U+FFFF names, by code point", () => {
    const astral = new DccApiCatalog("maya", {
      commands: [{ name: "\u{1F600}x" }, { name: "\uFF21x" }, { name: "ax" }],
      ranker: "overlap",
    });
    expect(names(astral, "x")).toEqual(["ax", "\uFF21x", "\u{1F600}x"]);
  });

  it("returns only records sharing a token, ordered by score then code point", () => {
    const record = fc.record({
      name: fc.string({ maxLength: 6 }),
      description: fc.string({ maxLength: 12 }),
    });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 12 }),
        fc.string({ maxLength: 12 }),
        (records, query) => {
          const catalog = new DccApiCatalog("dcc", { commands: records, ranker: "overlap" });
          const tokens = overlapTokens(query);
          const score = (hit: CommandRecord): number =>
            tokens.filter((token) => overlapHaystack(hit).includes(token)).length;
          const hits = catalog.search(query, { limit: 50 });
          for (const hit of hits) expect(score(hit)).toBeGreaterThan(0);
          for (let index = 1; index < hits.length; index++) {
            const previous = hits[index - 1] as CommandRecord;
            const current = hits[index] as CommandRecord;
            const order =
              score(previous) - score(current) || -compareCodePoints(previous.name, current.name);
            expect(order).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });

  it("bounds a 10 KB query to its first 32 distinct tokens", () => {
    const query = Array.from({ length: 2000 }, (_, index) => `w${index}`).join(" ");
    expect(query.length).toBeGreaterThan(10_000);
    expect(overlapTokens(query)).toHaveLength(32);
    expect(names(catalog, `${query} sphere`)).toEqual([]);
    expect(names(catalog, `sphere ${query}`)).toEqual(["polySphere"]);
  });
});
