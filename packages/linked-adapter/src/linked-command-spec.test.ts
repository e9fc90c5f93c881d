import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kitSpecsFile } from "./__fixtures__/python.ts";
import { CommandSpecError } from "./command-spec-error.ts";
import { checkCommandSpecs, commandSpecRecord, readCommandSpecs } from "./linked-command-spec.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function specFile(text: string): string {
  const folder = mkdtempSync(join(tmpdir(), "dcc-kit-specs-"));
  folders.push(folder);
  const file = join(folder, "commands.json");
  writeFileSync(file, text);
  return file;
}

const good = { name: "a.b", signature: "a.b(): null", description: "Does b." };

describe("command specs", () => {
  it("reads a spec file, frozen", () => {
    const specs = readCommandSpecs(kitSpecsFile);
    expect(specs.map((spec) => spec.name)).toContain("kit.echo");
    expect(Object.isFrozen(specs[0]?.args)).toBe(true);
  });

  it("makes a catalog record from a spec", () => {
    const record = commandSpecRecord(
      { ...good, examples: ["x"], args: { type: "object" } },
      { kind: "data" },
    );
    expect(record).toEqual({ ...good, examples: ["x"], args: { type: "object" }, kind: "data" });
  });

  it.each([
    ["{", /Cannot read the command spec file .*commands\.json/],
    ["{}", /must be a JSON array/],
    ['[{"name":"a"}]', /Command spec 0 in .*: "signature" must be a non-empty string/],
    [JSON.stringify([good, good]), /the name "a\.b" is declared twice/],
    [JSON.stringify([{ ...good, flags: [] }]), /unknown key "flags"/],
    [JSON.stringify([{ ...good, args: { properties: {} } }]), /"type": "object"/],
    [
      JSON.stringify([{ ...good, examples: [1] }]),
      /"examples" of a\.b must be an array of strings/,
    ],
    [JSON.stringify([{ ...good, lane: "yes" }]), /"lane" of a\.b must be true or false/],
    [JSON.stringify([{ ...good, image: 1 }]), /"image" of a\.b must be true or false/],
  ])("refuses %s naming what is wrong", (text, message) => {
    const file = specFile(text);
    let caught: unknown;
    try {
      readCommandSpecs(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CommandSpecError);
    expect((caught as CommandSpecError).message).toMatch(message);
    expect((caught as CommandSpecError).file).toBe(file);
  });

  it("checks a list given in code", () => {
    expect(checkCommandSpecs([good])).toEqual([good]);
    expect(() => checkCommandSpecs([{ ...good, method: "" }])).toThrow(/"method" of a\.b/);
  });
});
