import { describe, expect, it } from "vitest";
import { sceneHarness } from "./__fixtures__/scene-harness.ts";
import { parseCall, parseFlagSpecs, signatureOf } from "./command-spec.ts";

const specs = parseFlagSpecs(
  "name|n:string radius|r:number relative|r2 axis|ax:vector3 type|typ:strings",
  true,
  false,
);

describe("parseCall", () => {
  it("maps short flags to long ones and keeps positional arguments in args", () => {
    const call = parseCall("polySphere", specs, { n: "ball", r: 2, args: ["a"] });
    expect(call.flags).toEqual({ name: "ball", radius: 2 });
    expect(call.args).toEqual(["a"]);
  });

  it("treats a plain array as positional arguments and a bare value as one", () => {
    expect(parseCall("x", specs, ["a", 1]).args).toEqual(["a", 1]);
    expect(parseCall("x", specs, "pSphere1").args).toEqual(["pSphere1"]);
    expect(parseCall("x", specs, undefined)).toMatchObject({ args: [], flags: {} });
  });

  it("names the flag and the command in an unknown-flag error", () => {
    expect(() => parseCall("polySphere", specs, { radiuss: 1 })).toThrow(
      expect.objectContaining({
        code: "INVALID_FLAG",
        message: expect.stringMatching(
          /Invalid flag 'radiuss' for polySphere\. Supported flags: name \(n\), radius \(r\)/,
        ),
      }),
    );
  });

  it("checks flag value types", () => {
    expect(() => parseCall("x", specs, { radius: "big" })).toThrow(
      /Flag 'radius' of x expects a number/,
    );
    expect(() => parseCall("x", specs, { axis: [1, 2] })).toThrow(/three numbers/);
    expect(parseCall("x", specs, { type: "mesh" }).flags["type"]).toEqual(["mesh"]);
  });

  it("accepts true for any flag in query mode", () => {
    const call = parseCall("x", specs, { q: true, radius: true });
    expect(call.query).toBe(true);
    expect(call.flags["radius"]).toBe(true);
  });
});

describe("signatureOf", () => {
  it("writes a TypeScript-like signature with positional args and flags", () => {
    const { scene } = sceneHarness();
    const move = scene.commandSpecs().find((spec) => spec.name === "move");
    expect(move && signatureOf(move)).toMatch(
      /^move\(\{ args\?: \[x: number, y: number, z: number, \.\.\.objects: string\[\]\], relative\?: boolean;/,
    );
  });
});
