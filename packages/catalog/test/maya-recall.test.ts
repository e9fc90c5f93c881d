import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DccApiCatalog, type SynonymTable } from "../src/index.ts";
import { loadMayaRecords, mayaDataPath } from "./fixtures/maya-records.mjs";

// Natural-language queries an agent would type, each with the Maya command(s) that answer it,
// over the signature-only catalog of 1,469 commands (names and flags, no descriptions).
interface QueryCase {
  query: string;
  expected: string[];
}

const root = resolve(import.meta.dirname, "../../..");
const fixtures = join(import.meta.dirname, "fixtures");
const cases = JSON.parse(readFileSync(join(fixtures, "maya-queries.json"), "utf8")) as QueryCase[];
// General 3D words a Maya adapter would add; no command names.
const synonyms = JSON.parse(
  readFileSync(join(fixtures, "maya-synonyms.json"), "utf8"),
) as SynonymTable;
const records = loadMayaRecords(root);

function recall(catalog: DccApiCatalog, k: number): number {
  let found = 0;
  for (const { query, expected } of cases) {
    const names = catalog.search(query, { limit: k }).map((record) => record.name);
    if (names.some((name) => expected.includes(name))) found++;
  }
  return found / cases.length;
}

describe("recall on the Maya query set", () => {
  it("has at least 60 queries, each naming commands that exist", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const names = new Set(records.map((record) => record.name));
    expect(records).toHaveLength(1469);
    for (const { expected } of cases) {
      for (const name of expected) expect(names, name).toContain(name);
    }
  });

  it("finds the expected command in the top 5 for at least 85% of queries (ranked)", () => {
    const catalog = new DccApiCatalog("maya", { commands: records, synonyms });
    expect(recall(catalog, 5)).toBeGreaterThanOrEqual(0.85);
  });

  it("beats the upstream overlap ranker on the same queries", () => {
    const ranked = new DccApiCatalog("maya", { commands: records, synonyms });
    const overlap = new DccApiCatalog("maya", { commands: records, ranker: "overlap" });
    expect(recall(ranked, 1)).toBeGreaterThan(recall(overlap, 1));
    expect(recall(ranked, 5)).toBeGreaterThan(recall(overlap, 5));
  });

  it("answers the headline queries first", () => {
    const catalog = new DccApiCatalog("maya", { commands: records, synonyms });
    const first = (query: string): string | undefined => catalog.search(query)[0]?.name;
    expect(first("move an object")).toBe("move");
    expect(first("set a keyframe")).toBe("setKeyframe");
    expect(first("parent one object under another")).toBe("parent");
    expect(first("combine meshes into one")).toBe("polyUnite");
    expect(first("polySphere")).toBe("polySphere");
  });
});

describe("keywordFields on the Maya catalog", () => {
  // The reference app's shape: a signature that shows the first 25 flags, and a `flags` field
  // with all of them. Positional parameters (args, kwargs) and a flag spelt like its command are
  // left out, as the signature scanner leaves them out of a full signature.
  const data = JSON.parse(readFileSync(mayaDataPath(root), "utf8")) as {
    name: string;
    params: { name: string }[];
  }[];
  const positional = new Set(["self", "args", "kwargs", "arg", "flags", "options"]);
  const cut = data.map((command) => {
    const flags = command.params
      .map((param) => param.name)
      .filter((flag) => !positional.has(flag) && flag !== command.name);
    return {
      name: command.name,
      signature: `${command.name}(${flags.slice(0, 25).join(", ")})`,
      flags,
    };
  });
  const lateFlags = [
    ...new Set(data.flatMap((command) => command.params.slice(25).map((param) => param.name))),
  ];
  const queries = [...cases.map(({ query }) => query), ...lateFlags];
  const names = (catalog: DccApiCatalog, query: string): string =>
    catalog
      .search(query)
      .map((record) => record.name)
      .join(" ");

  it("ranks a cut signature plus every flag exactly as the full signature", () => {
    expect(lateFlags.length).toBeGreaterThan(1000);
    const full = new DccApiCatalog("maya", { commands: records, synonyms });
    const keyed = new DccApiCatalog("maya", { commands: cut, synonyms, keywordFields: ["flags"] });
    const plain = new DccApiCatalog("maya", { commands: cut, synonyms });
    const keyedDiffers: string[] = [];
    let plainDiffers = 0;
    for (const query of queries) {
      const expected = names(full, query);
      if (names(keyed, query) !== expected) keyedDiffers.push(query);
      if (names(plain, query) !== expected) plainDiffers++;
    }
    expect(keyedDiffers).toEqual([]);
    // Without the option the flags past the 25th are lost and the rankings change.
    expect(plainDiffers).toBeGreaterThan(lateFlags.length / 2);
  });
});
