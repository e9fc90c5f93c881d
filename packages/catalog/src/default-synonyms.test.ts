import { describe, expect, it } from "vitest";
import { DccApiCatalog } from "./dcc-api-catalog.ts";
import { DEFAULT_SYNONYMS } from "./default-synonyms.ts";

const commands = [
  { name: "polySphere", signature: "polySphere(radius: float) -> List[str]" },
  { name: "polyUnite", signature: "polyUnite(mergeUVSets: int) -> List[str]" },
  { name: "ls", signature: "ls(selection: bool, type: str) -> List[str]" },
];

describe("synonyms", () => {
  it("holds plain lower-case words only, no command names", () => {
    for (const [key, words] of Object.entries(DEFAULT_SYNONYMS)) {
      for (const word of [key, ...words]) expect(word).toMatch(/^[a-z]+$/);
    }
    expect(Object.isFrozen(DEFAULT_SYNONYMS)).toBe(true);
  });

  it("lets callers add a DCC's own words on top of the built-in table", () => {
    const plain = new DccApiCatalog("maya", { commands });
    expect(plain.search("ball")).toEqual([]);
    expect(plain.search("list")).toEqual([]);
    const extended = new DccApiCatalog("maya", {
      commands,
      synonyms: { ball: ["sphere"], list: ["ls"] },
    });
    expect(extended.search("ball")[0]?.name).toBe("polySphere");
    expect(extended.search("list")[0]?.name).toBe("ls");
    // The built-in groups still apply.
    expect(extended.search("combine")[0]?.name).toBe("polyUnite");
  });

  it("does not apply to the overlap ranker, which is upstream's algorithm", () => {
    const overlap = new DccApiCatalog("maya", {
      commands,
      ranker: "overlap",
      synonyms: { ball: ["sphere"] },
    });
    expect(overlap.search("ball")).toEqual([]);
  });
});
