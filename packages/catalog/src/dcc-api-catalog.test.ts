import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CatalogErrorCode } from "./catalog-error-code.ts";
import { CatalogFileError } from "./catalog-file-error.ts";
import type { CommandRecord } from "./command-record.ts";
import { CommandRecordError } from "./command-record-error.ts";
import { DccApiCatalog } from "./dcc-api-catalog.ts";
import { KeywordFieldsError } from "./keyword-fields-error.ts";
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
      signature: "",
      description: "Render the current frame",
    });
    expect(catalog.get("missing")).toBeUndefined();
    expect(new DccApiCatalog("maya").size).toBe(0);
  });

  it('gives every record a name, signature and description, "" for one it lacks', () => {
    const catalog = new DccApiCatalog("maya", {
      commands: [
        { name: "bare" },
        // A JavaScript caller may spell a missing field out as undefined.
        {
          owner: "geo",
          name: "explicit",
          signature: undefined,
          description: undefined,
        } as unknown as CommandRecord,
        { name: "full", signature: "full()", description: "bare explicit lone" },
      ],
      catalogText: "lone\nbareText - bare text",
    });
    const expected = [
      { name: "bare", signature: "", description: "" },
      { name: "explicit", signature: "", description: "", owner: "geo" },
      { name: "full", signature: "full()", description: "bare explicit lone" },
      { name: "lone", signature: "", description: "" },
      { name: "bareText", signature: "", description: "bare text" },
    ];
    expect([...catalog]).toStrictEqual(expected);
    // The three fields come first, so a client reading the JSON sees them before any extra.
    expect(Object.keys(catalog.get("explicit") ?? {})).toEqual([
      "name",
      "signature",
      "description",
      "owner",
    ]);
    for (const ranker of ["ranked", "overlap"] as const) {
      const hits = new DccApiCatalog("maya", { commands: [...catalog], ranker }).search(
        "bare explicit lone text",
        { limit: 50 },
      );
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(JSON.parse(JSON.stringify(hit))).toMatchObject({
          name: expect.any(String),
          signature: expect.any(String),
          description: expect.any(String),
        });
      }
    }
  });

  it("keeps extra fields and returns copies the caller cannot use to corrupt the catalog", () => {
    const catalog = new DccApiCatalog("maya", { commands });
    const [hit] = catalog.search("sphere");
    expect(hit).toEqual({ ...commands[0], description: "" });
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
      signature: "",
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
      expect(catalog.get("polySphere")).toEqual({ ...commands[0], description: "" });
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

  describe("keywordFields", () => {
    // A signature that shows two flags, and a flags field that lists all of them.
    const sphere: CommandRecord = {
      name: "polySphere",
      signature: "polySphere(radius: float, name: str) -> List[str]",
      flags: ["radius", "name", "subdivisionsHeight", "uv_set2", "createUVs"],
    };
    const records: CommandRecord[] = [sphere, ...commands.slice(1)];
    const names = (catalog: DccApiCatalog, query: string): string[] =>
      catalog.search(query).map((record) => record.name);

    it("finds a flag that appears only in a keyword field, split and stemmed", () => {
      const plain = new DccApiCatalog("maya", { commands: records });
      const keyed = new DccApiCatalog("maya", { commands: records, keywordFields: ["flags"] });
      expect(keyed.keywordFields).toEqual(["flags"]);
      expect(plain.keywordFields).toEqual([]);
      for (const query of ["subdivisionsHeight", "subdivision heights", "uv set", "create uvs"]) {
        expect(names(plain, query), query).not.toContain("polySphere");
        expect(names(keyed, query)[0], query).toBe("polySphere");
      }
      // Records come back as given (plus the missing description), the keyword field included.
      expect(keyed.search("subdivisionsHeight")[0]).toEqual({ ...sphere, description: "" });
    });

    it("weighs a keyword word exactly like the same word in the signature, counted once", () => {
      // Equal weights tie, and ties go to the name by code point: whichever record holds the word
      // in its signature, in a keyword field or in both (one word, so no longer a field), the
      // three come back in name order.
      for (const [inSignature, inKeywords, inBoth] of [
        ["aaaa", "bbbb", "cccc"],
        ["bbbb", "cccc", "aaaa"],
        ["cccc", "aaaa", "bbbb"],
        ["aaaa", "cccc", "bbbb"],
      ] as const) {
        const catalog = new DccApiCatalog("maya", {
          commands: [
            { name: inSignature, signature: `${inSignature}(radius: float)` },
            { name: inKeywords, signature: `${inKeywords}()`, flags: ["radius"] },
            { name: inBoth, signature: `${inBoth}(radius: float)`, flags: ["radius"] },
          ],
          keywordFields: ["flags"],
        });
        expect(names(catalog, "radius")).toEqual(["aaaa", "bbbb", "cccc"]);
      }
    });

    it("indexes a plain string value and several fields, ignoring absent ones", () => {
      const catalog = new DccApiCatalog("maya", {
        commands: [
          { name: "polyBevel", tags: "chamfer_edges round-corners" },
          { name: "polyCube", aliases: ["boxPrimitive"] },
          { name: "move" },
        ],
        keywordFields: ["tags", "aliases", "aliases", "toString"],
      });
      expect(catalog.keywordFields).toEqual(["tags", "aliases", "toString"]);
      expect(names(catalog, "chamfer")).toEqual(["polyBevel"]);
      expect(names(catalog, "rounded corner")).toEqual(["polyBevel"]);
      expect(names(catalog, "box primitive")).toEqual(["polyCube"]);
    });

    it("keeps indexing the keyword fields after a command is added", () => {
      const catalog = new DccApiCatalog("maya", { commands: records, keywordFields: ["flags"] });
      expect(names(catalog, "subdivisionsHeight")).toEqual(["polySphere"]);
      catalog.addCommand("render", { description: "Render the current frame" });
      expect(names(catalog, "subdivisionsHeight")).toEqual(["polySphere"]);
      expect(names(catalog, "render")).toEqual(["render"]);
    });

    it("leaves the overlap ranker as upstream: keyword fields are not searched", () => {
      const catalog = new DccApiCatalog("maya", {
        commands: records,
        ranker: "overlap",
        keywordFields: ["flags"],
      });
      expect(catalog.search("subdivisionsHeight")).toEqual([]);
      expect(names(catalog, "radius")).toEqual(["polySphere"]);
    });

    it.each([
      ["a string", "flags"],
      ["null", null],
      ["an object", { flags: true }],
      ["a number entry", ["flags", 3]],
      ["an empty name", [""]],
      ["a built-in field", ["signature"]],
      ["the name field", ["flags", "name"]],
    ])("rejects %s with a coded error", (_label, keywordFields) => {
      const create = (): unknown =>
        new DccApiCatalog("maya", { commands, keywordFields: keywordFields as string[] });
      expect(create).toThrow(KeywordFieldsError);
      expect(create).toThrow(
        expect.objectContaining({
          code: CatalogErrorCode.InvalidKeywordFields,
          keywordFields,
          message: expect.stringMatching(/^Invalid keywordFields: /),
        }),
      );
    });

    it.each([
      ["a number", 5],
      ["null", null],
      ["an object", { radius: true }],
      ["an array holding a number", ["radius", 2]],
    ])("rejects a record whose keyword field is %s", (_label, flags) => {
      const create = (): unknown =>
        new DccApiCatalog("maya", {
          commands: [
            { name: "ok", flags: ["a"] },
            { name: "bad", flags },
          ],
          keywordFields: ["flags"],
        });
      expect(create).toThrow(CommandRecordError);
      expect(create).toThrow(
        expect.objectContaining({
          code: CatalogErrorCode.InvalidCommandRecord,
          index: 1,
          message: expect.stringContaining('keyword field "flags"'),
        }),
      );
      // Without the option the field is just an extra field, kept as given.
      const plain = new DccApiCatalog("maya", { commands: [{ name: "bad", flags }] });
      expect(plain.get("bad")?.["flags"]).toEqual(flags);
    });

    it("passes through fromJsonFile", async () => {
      const file = join(directory, "keywords.json");
      writeFileSync(file, JSON.stringify(records));
      const catalog = await DccApiCatalog.fromJsonFile("maya", file, { keywordFields: ["flags"] });
      expect(names(catalog, "subdivisionsHeight")).toEqual(["polySphere"]);
    });
  });
});
