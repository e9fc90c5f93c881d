import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

describe("setAttr and getAttr", () => {
  it("sets scalars, compounds (spread or as one array) and reads them back like maya.cmds", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("setAttr", ["pSphere1.translateX", 5]);
    run("setAttr", ["pSphere1.rotate", 10, 20, 30]);
    run("setAttr", ["pSphere1.s", [2, 3, 4]]);
    expect(run("getAttr", ["pSphere1.tx"])).toBe(5);
    expect(run("getAttr", ["pSphere1.rotate"])).toEqual([[10, 20, 30]]);
    expect(run("getAttr", ["pSphere1.scaleZ"])).toBe(4);
    run("setAttr", ["pSphere1.visibility", 0]);
    expect(run("getAttr", ["pSphere1.v"])).toBe(false);
  });

  it("reports attribute type, lock, keyable and settable", () => {
    const { run } = sceneHarness();
    run("polySphere");
    expect(run("getAttr", { args: ["pSphere1.translate"], type: true })).toBe("double3");
    expect(run("getAttr", { args: ["pSphere1.tx"], typ: true })).toBe("double");
    expect(run("getAttr", { args: ["pSphere1.tx"], keyable: true })).toBe(true);
    run("setAttr", { args: ["pSphere1.tx"], lock: true });
    expect(run("getAttr", { args: ["pSphere1.tx"], lock: true })).toBe(true);
    expect(run("getAttr", { args: ["pSphere1.tx"], settable: true })).toBe(false);
    expect(() => run("setAttr", ["pSphere1.tx", 1])).toThrow(
      "setAttr: The attribute 'pSphere1.translateX' is locked or connected and cannot be modified.",
    );
    run("setAttr", { args: ["pSphere1.tx"], l: false });
    run("setAttr", ["pSphere1.tx", 1]);
    expect(run("getAttr", ["pSphere1.tx"])).toBe(1);
  });

  it("fails with Maya's messages for unknown nodes and attributes, and checks values", () => {
    const { run } = sceneHarness();
    run("polySphere");
    expect(() => run("getAttr", ["ghost.tx"])).toThrow("No object matches name: ghost.tx");
    expect(() => run("getAttr", ["pSphere1.bogus"])).toThrow(
      "No object matches name: pSphere1.bogus",
    );
    expect(() => run("setAttr", ["pSphere1.translate", 1, 2])).toThrow(/expects 3 values, got 2/);
    expect(() => run("setAttr", ["pSphere1.tx", "high"])).toThrow(/expects a number/);
    expect(() => run("setAttr", ["pSphere1.tx"])).toThrow(/No value given/);
    expect(() => run("getAttr", ["pSphere1"])).toThrow(/Expected 'node.attribute'/);
  });

  it("handles enum attributes by index or name", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("setAttr", ["pSphere1.rotateOrder", "zxy"]);
    expect(run("getAttr", ["pSphere1.ro"])).toBe(2);
    expect(run("getAttr", { args: ["pSphere1.ro"], asString: true })).toBe("zxy");
    expect(() => run("setAttr", ["pSphere1.ro", "abc"])).toThrow(/no enum value 'abc'/);
  });
});

describe("addAttr, deleteAttr, listAttr, attributeQuery", () => {
  it("adds typed custom attributes with defaults, ranges and enums", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("addAttr", {
      args: ["pCube1"],
      longName: "speed",
      at: "double",
      min: 0,
      max: 10,
      dv: 3,
      k: true,
    });
    expect(run("getAttr", ["pCube1.speed"])).toBe(3);
    run("setAttr", ["pCube1.speed", 50]);
    expect(run("getAttr", ["pCube1.speed"])).toBe(10);
    run("addAttr", { args: ["pCube1"], ln: "label", dt: "string" });
    run("setAttr", { args: ["pCube1.label", "hero"], type: "string" });
    expect(run("getAttr", ["pCube1.label"])).toBe("hero");
    run("addAttr", { args: ["pCube1"], ln: "mode", at: "enum", en: "Low:Medium:High" });
    run("setAttr", ["pCube1.mode", "High"]);
    expect(run("getAttr", ["pCube1.mode"])).toBe(2);
    run("addAttr", { args: ["pCube1"], ln: "aim", at: "double3" });
    run("setAttr", ["pCube1.aim", 1, 2, 3]);
    expect(run("getAttr", ["pCube1.aimY"])).toBe(2);
    run("addAttr", { args: ["pCube1"], ln: "on", sn: "o", at: "bool", dv: 1 });
    expect(run("getAttr", ["pCube1.o"])).toBe(true);
    expect(() => run("addAttr", { args: ["pCube1"], ln: "speed" })).toThrow(
      /existing attribute named 'speed'/,
    );
    expect(() => run("addAttr", { args: ["pCube1"], ln: "m", at: "matrix" })).toThrow(
      /not simulated/,
    );
    expect(() => run("addAttr", { args: ["pCube1"], ln: "e", at: "enum" })).toThrow(
      /needs enumName/,
    );
  });

  it("lists attributes by filter and null when none match", () => {
    const { run } = sceneHarness();
    run("polyCube");
    expect(run("listAttr", { args: ["pCube1"], keyable: true })).toEqual([
      "visibility",
      "translateX",
      "translateY",
      "translateZ",
      "rotateX",
      "rotateY",
      "rotateZ",
      "scaleX",
      "scaleY",
      "scaleZ",
    ]);
    expect(run("listAttr", { args: ["pCube1"], userDefined: true })).toBeNull();
    run("addAttr", { args: ["pCube1"], ln: "speed" });
    expect(run("listAttr", { args: ["pCube1"], ud: true })).toEqual(["speed"]);
    expect(run("listAttr", { args: ["pCube1"], st: "translate*" })).toEqual([
      "translate",
      "translateX",
      "translateY",
      "translateZ",
    ]);
    expect(run("listAttr", { args: ["pCube1"], string: "t?", shortNames: true })).toEqual([
      "tx",
      "ty",
      "tz",
    ]);
    run("setAttr", { args: ["pCube1.tx"], lock: true });
    expect(run("listAttr", { args: ["pCube1"], locked: true })).toEqual(["translateX"]);
  });

  it("deletes only dynamic attributes", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("addAttr", { args: ["pCube1"], ln: "speed" });
    run("deleteAttr", ["pCube1.speed"]);
    expect(run("objExists", ["pCube1.speed"])).toBe(false);
    run("addAttr", { args: ["pCube1"], ln: "gone" });
    run("deleteAttr", { args: ["pCube1"], attribute: "gone" });
    expect(run("objExists", ["pCube1.gone"])).toBe(false);
    expect(() => run("deleteAttr", ["pCube1.tx"])).toThrow(/not a dynamic attribute/);
  });

  it("answers attributeQuery", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("addAttr", { args: ["pCube1"], ln: "mode", at: "enum", en: "A:B" });
    run("addAttr", { args: ["pCube1"], ln: "speed", min: 1 });
    expect(run("attributeQuery", { args: ["tx"], node: "pCube1", exists: true })).toBe(true);
    expect(run("attributeQuery", { args: ["nope"], n: "pCube1", ex: true })).toBe(false);
    expect(run("attributeQuery", { args: ["translate"], n: "pCube1", listChildren: true })).toEqual(
      ["translateX", "translateY", "translateZ"],
    );
    expect(run("attributeQuery", { args: ["ty"], n: "pCube1", listParent: true })).toEqual([
      "translate",
    ]);
    expect(run("attributeQuery", { args: ["mode"], n: "pCube1", listEnum: true })).toEqual(["A:B"]);
    expect(run("attributeQuery", { args: ["speed"], n: "pCube1", minExists: true })).toBe(true);
    expect(run("attributeQuery", { args: ["speed"], n: "pCube1", minimum: true })).toEqual([1]);
    expect(run("attributeQuery", { args: ["tx"], n: "pCube1", longName: true })).toBe("translateX");
    expect(run("attributeQuery", { args: ["translateX"], n: "pCube1", shortName: true })).toBe(
      "tx",
    );
    expect(run("attributeQuery", { args: ["speed"], n: "pCube1", attributeType: true })).toBe(
      "double",
    );
  });
});
