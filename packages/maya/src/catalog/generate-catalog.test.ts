import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  buildCatalog,
  buildRecord,
  createModeReturn,
  generate,
  MAX_SIGNATURE_FLAGS,
  mapPythonType,
  paths,
  type SourceCommand,
} from "../../scripts/generate-catalog.mjs";

const hasSource = existsSync(paths.source);
const source: SourceCommand[] = hasSource ? JSON.parse(readFileSync(paths.source, "utf8")) : [];
const byName = new Map(source.map((command) => [command.name, command]));
const descriptions: Record<string, string> = JSON.parse(readFileSync(paths.descriptions, "utf8"));

function command(name: string): SourceCommand {
  const found = byName.get(name);
  if (found === undefined) throw new Error(`${name} is not in the shared data`);
  return found;
}

describe("Python type mapping", () => {
  it.each([
    ["float", "number"],
    ["int", "number"],
    ["str", "string"],
    ["bool", "boolean"],
    ["Any", "unknown"],
    ["Queryable[float]", "number"],
    ["Queryable[Tuple[float, float, float]]", "[number, number, number]"],
    ["Multiuse[str]", "string | string[]"],
    ["Multiuse[Tuple[int, str]]", "[number, string] | [number, string][]"],
    ["Queryable[Multiuse[bool]]", "boolean | boolean[]"],
    ["List[str]", "string[]"],
    ["Union[str, List[str]]", "string | string[]"],
    ["Optional[int]", "number | null"],
    ["Range[float]", "[number] | [number, number]"],
    ["NullableRange[float]", "[number | null] | [number | null, number | null]"],
    ["Callable[..., Any]", "Function"],
    ["Union[Tuple[()], Tuple[bool, float]]", "[] | [boolean, number]"],
    ["Tuple[float, float, float, float, float, float, float, float]", "number[]"],
    [
      "Multiuse[\n    Union[Tuple[int, float], Tuple[int, float, float, float]]\n]",
      "[number, number] | [number, number, number, number] | ([number, number] | [number, number, number, number])[]",
    ],
  ])("maps %s to %s", (python, typescript) => {
    expect(mapPythonType(python)).toBe(typescript);
  });

  it("rejects a type it does not know instead of guessing", () => {
    expect(() => mapPythonType("Frobnicate[int]")).toThrow(/Unknown Python type/);
  });

  it("takes the create-mode result from the query-mode union", () => {
    expect(createModeReturn("Union[List[str], bool, int, float]", true)).toBe("string[]");
    expect(createModeReturn("Union[str, List[str]]", false)).toBe("string | string[]");
    expect(createModeReturn("None", false)).toBe("void");
  });
});

describe.runIf(hasSource)("records built from real commands", () => {
  it("polySphere: variadic objects, queryable flags, edit/query modes", () => {
    const record = buildRecord(command("polySphere"), undefined);
    expect(record.signature).toMatch(/^polySphere\(args\?: string\[\], flags\?: \{ /);
    expect(record.signature).toContain("axis?: [number, number, number] /*q*/;");
    expect(record.signature).toContain("radius?: number /*q*/;");
    expect(record.signature).toContain("name?: string;");
    expect(record.signature).toContain("edit?: boolean; query?: boolean }");
    expect(record.signature).toMatch(/\): string\[\]$/);
    expect(record).toMatchObject({ returns: "string[]", queryable: true, editable: true });
    expect(record.flags).toContain("subdivisionsAxis");
  });

  it("move: fixed positional numbers before the objects", () => {
    const record = buildRecord(command("move"), undefined);
    expect(record.signature).toMatch(
      /^move\(args\?: \[number\?, number\?, number\?, \.\.\.string\[\]\], /,
    );
    expect(record.returns).toBe("boolean");
    expect(record.queryable).toBeUndefined();
  });

  it("connectAttr and currentTime: fixed positional arguments only", () => {
    expect(buildRecord(command("connectAttr"), undefined).signature).toMatch(
      /^connectAttr\(args\?: \[string\?, string\?\], flags\?: \{ force\?: boolean;/,
    );
    expect(buildRecord(command("currentTime"), undefined).signature).toBe(
      "currentTime(args?: [number?], flags?: { update?: boolean; edit?: boolean; query?: boolean }): number",
    );
  });

  it("undo: no arguments at all", () => {
    expect(buildRecord(command("undo"), undefined).signature).toBe("undo(): boolean");
  });

  it("findKeyframe: ranges and multi-use flags", () => {
    const { signature } = buildRecord(command("findKeyframe"), undefined);
    expect(signature).toContain("index?: number | number[];");
    expect(signature).toContain(
      "float?: [number] | [number, number] | ([number] | [number, number])[];",
    );
  });

  it("ls: a capped signature keeps the flags its description names", () => {
    const record = buildRecord(command("ls"), descriptions["ls"]);
    expect(record.signature).toContain("type?: string | string[];");
    expect(record.signature).toContain("selection?: boolean;");
    expect(record.signature).toMatch(/\/\* …\d+ more flags \*\/ \}\): string\[\]$/);
    expect(record.flags).toHaveLength(command("ls").params.length - 1);
  });

  it("keeps every signature readable: at most 25 flags and a bounded length", () => {
    const records = buildCatalog(source, descriptions);
    for (const record of records) {
      const shown = record.signature.match(/\?: /g)?.length ?? 0;
      // One `?: ` per shown flag, plus one for `args` and one for `flags`.
      expect(shown, record.name).toBeLessThanOrEqual(MAX_SIGNATURE_FLAGS + 2);
      expect(record.signature.length, record.name).toBeLessThanOrEqual(1_400);
    }
    const capped = records.filter((record) => record.signature.includes("more flags */"));
    expect(capped.length).toBeGreaterThan(200);
    for (const record of capped) {
      const hidden = Number(/…(\d+) more flags/.exec(record.signature)?.[1]);
      expect(hidden + MAX_SIGNATURE_FLAGS, record.name).toBe(record.flags.length);
    }
  });

  it("refuses descriptions of commands the data does not have", () => {
    expect(() => buildCatalog(source, { polyTeapot: "Create a teapot." })).toThrow(/polyTeapot/);
  });

  it("the committed generated file is up to date with the generator", () => {
    const committed = readFileSync(paths.output, "utf8");
    expect(generate() === committed, "run pnpm generate:catalog").toBe(true);
  });
});

describe("hand-written descriptions", () => {
  const entries = Object.entries(descriptions);

  it("describe at least 300 commands, one line each", () => {
    expect(entries.length).toBeGreaterThanOrEqual(300);
    for (const [name, text] of entries) {
      expect(text, name).toMatch(/^[A-Z].*\.$/);
      expect(text, name).not.toMatch(/\n/);
      expect(text.length, name).toBeLessThanOrEqual(400);
    }
  });

  it.runIf(hasSource)("name only commands that exist, and only their real flags", () => {
    for (const [name, text] of entries) {
      const found = byName.get(name);
      expect(found, name).toBeDefined();
      const keyFlags = /Key flags: ([^.]+)\./.exec(text)?.[1];
      if (keyFlags === undefined || found === undefined) continue;
      const flags = new Set(found.params.map((parameter) => parameter.name));
      for (const flag of keyFlags.split(/,\s*/))
        expect(flags.has(flag), `${name}: ${flag}`).toBe(true);
    }
  });

  it("cover every area the catalog promises", () => {
    for (const name of [
      "polySphere",
      "polyExtrudeFacet",
      "move",
      "makeIdentity",
      "parent",
      "listRelatives",
      "setAttr",
      "connectAttr",
      "setKeyframe",
      "playbackOptions",
      "skinCluster",
      "parentConstraint",
      "shadingNode",
      "sets",
      "spotLight",
      "camera",
      "render",
      "file",
      "referenceQuery",
      "select",
      "filterExpand",
      "undoInfo",
      "curve",
      "polyPlanarProjection",
      "createDisplayLayer",
      "expression",
      "particle",
      "gravity",
    ]) {
      expect(descriptions[name], name).toBeDefined();
    }
  });
});
