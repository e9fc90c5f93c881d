import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CatalogErrorCode } from "./catalog-error-code.ts";
import { CatalogFileError } from "./catalog-file-error.ts";
import type { CommandRecord } from "./command-record.ts";
import { CommandRecordError } from "./command-record-error.ts";
import { DccApiCatalog } from "./dcc-api-catalog.ts";
import { RankerError } from "./ranker-error.ts";
import { SearchLimitError } from "./search-limit-error.ts";

const commands: CommandRecord[] = [
  { name: "polySphere", signature: "polySphere(radius: float) -> List[str]", owner: "geo" },
  { name: "polyCube", signature: "polyCube(width: float) -> List[str]" },
  { name: "move", signature: "move(x: float, y: float, z: float, relative: bool) -> None" },
];

describe("DccApiCatalog", () => {
  const directory = mkdtempSync(join(tmpdir(), "dcc-catalog-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("holds commands, text entries and added commands, in order", () => {
    const catalog = new DccApiCatalog("maya", {
      commands,
      catalogText: "render - Render the current frame",
    });
    catalog.addCommand("select", { description: "Select nodes" });
    expect(catalog.dccName).toBe("maya");
    expect(catalog.size).toBe(5);
    expect([...catalog].map((record) => record.name)).toEqual([
      "polySphere",
      "polyCube",
      "move",
      "render",
      "select",
    ]);
    expect(catalog.get("select")).toEqual({
      name: "select",
      signature: "",
      description: "Select nodes",
    });
    expect(catalog.get("render")).toEqual({
      name: "render",
      description: "Render the current frame",
    });
    expect(catalog.get("missing")).toBeUndefined();
    expect(new DccApiCatalog("maya").size).toBe(0);
  });

  it("keeps extra fields and returns copies the caller cannot use to corrupt the catalog", () => {
    const catalog = new DccApiCatalog("maya", { commands });
    const [hit] = catalog.search("sphere");
    expect(hit).toEqual(commands[0]);
    (hit as CommandRecord).name = "changed";
    expect(catalog.search("sphere")[0]?.name).toBe("polySphere");
  });

  it("replaces an earlier command with the same name, keeping its position", () => {
    const catalog = new DccApiCatalog("maya", {
      commands,
      catalogText: "polyCube - Create a polygon cube",
    });
    catalog.addCommand("move", { description: "Move objects", signature: "move(x: float)" });
    expect(catalog.size).toBe(3);
    expect([...catalog].map((record) => record.name)).toEqual(["polySphere", "polyCube", "move"]);
    expect(catalog.get("polyCube")).toEqual({
      name: "polyCube",
      description: "Create a polygon cube",
    });
    expect(catalog.search("relative")).toEqual([]);
    expect(catalog.search("move objects")[0]?.name).toBe("move");
  });

  it("sees commands added after a search", () => {
    const catalog = new DccApiCatalog("maya", { commands });
    expect(catalog.search("torus")).toEqual([]);
    catalog.addCommand("polyTorus", { description: "Create a polygon torus" });
    expect(catalog.search("torus").map((record) => record.name)).toEqual(["polyTorus"]);
  });

  it.each([0, -1, 51, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "3"])(
    "rejects the limit %j with a coded error",
    (limit) => {
      const catalog = new DccApiCatalog("maya", { commands });
      for (const ranker of ["ranked", "overlap"] as const) {
        const search = (): unknown =>
          new DccApiCatalog("maya", { commands, ranker }).search("sphere", {
            limit: limit as number,
          });
        expect(search).toThrow(SearchLimitError);
        expect(search).toThrow(
          expect.objectContaining({ code: CatalogErrorCode.InvalidSearchLimit }),
        );
      }
      expect(catalog.search("poly", { limit: 1 })).toHaveLength(1);
      expect(catalog.search("poly", { limit: 50 })).toHaveLength(2);
    },
  );

  it("returns [] for empty, blank and stopword-only queries with either ranker", () => {
    for (const ranker of ["ranked", "overlap"] as const) {
      const catalog = new DccApiCatalog("maya", { commands, ranker });
      for (const query of ["", "   \t\n", "the a of", "?!", "for an in"]) {
        expect(catalog.search(query)).toEqual([]);
      }
    }
  });

  it("rejects unknown rankers and malformed records with coded errors", () => {
    expect(() => new DccApiCatalog("maya", { ranker: "bm25" as "ranked" })).toThrow(RankerError);
    expect(() => new DccApiCatalog("maya", { commands: [42 as unknown as CommandRecord] })).toThrow(
      CommandRecordError,
    );
    expect(
      () => new DccApiCatalog("maya", { commands: [{ name: 7 } as unknown as CommandRecord] }),
    ).toThrow(expect.objectContaining({ code: CatalogErrorCode.InvalidCommandRecord, index: 0 }));
    expect(
      () =>
        new DccApiCatalog("maya", {
          commands: [{ name: "a", description: 1 } as unknown as CommandRecord],
        }),
    ).toThrow(CommandRecordError);
  });

  it("loads a JSON array file and a JSON Lines file", async () => {
    const arrayFile = join(directory, "array.json");
    writeFileSync(arrayFile, JSON.stringify(commands));
    const linesFile = join(directory, "lines.jsonl");
    writeFileSync(linesFile, `${commands.map((record) => JSON.stringify(record)).join("\n")}\n`);
    for (const file of [arrayFile, linesFile]) {
      const catalog = await DccApiCatalog.fromJsonFile("maya", file, { ranker: "overlap" });
      expect(catalog.size).toBe(3);
      expect(catalog.ranker).toBe("overlap");
      expect(catalog.get("polySphere")).toEqual(commands[0]);
    }
  });

  it("reports unreadable and malformed JSON files with coded errors", async () => {
    const broken = join(directory, "broken.jsonl");
    writeFileSync(broken, '{"name":"a"}\n{"name":\n');
    await expect(DccApiCatalog.fromJsonFile("maya", broken)).rejects.toThrow(/line 2/);
    await expect(DccApiCatalog.fromJsonFile("maya", join(directory, "none.json"))).rejects.toThrow(
      CatalogFileError,
    );
    const object = join(directory, "object.json");
    writeFileSync(object, "[1]");
    await expect(DccApiCatalog.fromJsonFile("maya", object)).rejects.toThrow(CommandRecordError);
  });
});
