import { describe, expect, it } from "vitest";
import { rounded, sceneHarness } from "../__fixtures__/scene-harness.ts";

describe("select", () => {
  it("replaces, adds, deselects, toggles and clears the selection", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polyCube");
    run("polyCone");
    run("select", ["pSphere1"]);
    run("select", { args: ["pCube1"], add: true });
    expect(run("ls", { sl: true })).toEqual(["pSphere1", "pCube1"]);
    run("select", { args: ["pSphere1"], d: true });
    expect(run("ls", { sl: true })).toEqual(["pCube1"]);
    run("select", { args: ["pCube1", "pCone1"], tgl: true });
    expect(run("ls", { sl: true })).toEqual(["pCone1"]);
    run("select", { args: ["pSphere1"], replace: true });
    expect(run("ls", { sl: true })).toEqual(["pSphere1"]);
    run("select", { args: ["pSphere1"], hi: true });
    expect(run("ls", { sl: true })).toEqual(["pSphere1", "pSphereShape1"]);
    run("select", { clear: true });
    expect(run("ls", { sl: true })).toEqual([]);
    run("select", { allDagObjects: true });
    expect(run("ls", { sl: true })).toEqual(["pSphere1", "pCube1", "pCone1"]);
    expect(() => run("select", ["ghost"])).toThrow("No object matches name: ghost");
  });
});

describe("delete", () => {
  it("deletes objects with their shapes, history and animation curves", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("setKeyframe", { args: ["pSphere1"], attribute: "tx", t: 1, v: 1 });
    run("delete", ["pSphere1"]);
    expect(run("ls", ["pSphere*", "polySphere*", "*_translateX"])).toEqual([]);
    expect(run("sets", { args: ["initialShadingGroup"], q: true })).toBeNull();
  });

  it("deletes the selection, and fails with nothing to delete", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("delete");
    expect(run("ls", { type: "transform" })).toEqual([]);
    expect(() => run("delete")).toThrow("delete: Not enough objects or values.");
  });

  it("deletes only history with constructionHistory (ch)", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("delete", { args: ["pCube1"], ch: true });
    expect(run("ls", { type: "polyCube" })).toEqual([]);
    expect(run("objExists", ["pCube1"])).toBe(true);
  });

  it("refuses to delete default nodes", () => {
    const { run } = sceneHarness();
    expect(() => run("delete", ["lambert1"])).toThrow(
      expect.objectContaining({ code: "INVALID_STATE" }),
    );
  });
});

describe("rename", () => {
  it("renames a node and its default-named shape, keeping names unique", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polySphere");
    expect(run("rename", ["pSphere1", "ball"])).toBe("ball");
    expect(run("listRelatives", ["ball"])).toEqual(["ballShape"]);
    expect(run("rename", ["pSphere2", "ball"])).toBe("ball1");
    expect(run("listRelatives", ["ball1"])).toEqual(["ballShape1"]);
    expect(run("rename", { args: ["ball1", "orb"], ignoreShape: true })).toBe("orb");
    expect(run("listRelatives", ["orb"])).toEqual(["ballShape1"]);
  });

  it("renames the first selected object when given one name", () => {
    const { run } = sceneHarness();
    run("polyCube");
    expect(run("rename", ["crate"])).toBe("crate");
    expect(() => run("rename", ["ghost", "x"])).toThrow("No object matches name: ghost");
    expect(() => run("rename", ["crate", "bad name"])).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("duplicate", () => {
  it("copies objects with attributes and shading, numbering the copies", () => {
    const { run } = sceneHarness();
    run("polySphere", { position: [1, 2, 3] });
    expect(run("duplicate", ["pSphere1"])).toEqual(["pSphere2"]);
    expect(run("getAttr", ["pSphere2.translate"])).toEqual([[1, 2, 3]]);
    expect(run("listRelatives", ["pSphere2"])).toEqual(["pSphereShape2"]);
    expect(run("sets", { args: ["initialShadingGroup"], q: true })).toEqual([
      "pSphereShape1",
      "pSphereShape2",
    ]);
    expect(run("duplicate", { args: ["pSphere1"], name: "copy" })).toEqual(["copy"]);
    expect(run("ls", { sl: true })).toEqual(["copy"]);
  });

  it("copies hierarchies under the same parent and returns roots only with rr", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("group", { args: ["pSphere1"], n: "grp" });
    expect(run("duplicate", ["grp"])).toEqual(["grp1", "pSphere2"]);
    expect(run("duplicate", { args: ["grp"], rr: true })).toEqual(["grp2"]);
    expect(run("listRelatives", { args: ["grp2"], ad: true })).toEqual([
      "pSphereShape3",
      "pSphere3",
    ]);
  });

  it("copies incoming connections with inputConnections (ic)", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("polySphere");
    run("connectAttr", ["pCube1.tx", "pSphere1.ty"]);
    run("duplicate", { args: ["pSphere1"], ic: true });
    run("setAttr", ["pCube1.tx", 4]);
    expect(run("getAttr", ["pSphere2.ty"])).toBe(4);
  });
});

describe("group and parent", () => {
  it("groups objects under a new transform, keeping world positions", () => {
    const { run } = sceneHarness();
    run("polySphere", { position: [1, 0, 0] });
    run("polyCube", { position: [0, 2, 0] });
    expect(run("group", ["pSphere1", "pCube1"])).toBe("group1");
    expect(run("listRelatives", ["group1"])).toEqual(["pSphere1", "pCube1"]);
    expect(run("xform", { args: ["pCube1"], q: true, ws: true, t: true })).toEqual([0, 2, 0]);
    expect(run("ls", { sl: true })).toEqual(["group1"]);
  });

  it("makes empty groups, named ones, and groups under a parent or the world", () => {
    const { run } = sceneHarness();
    expect(run("group", { empty: true, name: "root" })).toBe("root");
    run("polyCube");
    expect(run("group", { args: ["pCube1"], parent: "root", n: "inner" })).toBe("inner");
    expect(run("ls", { args: ["pCube1"], long: true })).toEqual(["|root|inner|pCube1"]);
    expect(run("group", { args: ["pCube1"], world: true })).toBe("group1");
    expect(run("ls", { args: ["group1"], long: true })).toEqual(["|group1"]);
    expect(run("group", { em: true })).toBe("group2");
  });

  it("keeps the world transform when parenting, unless relative", () => {
    const { run } = sceneHarness();
    run("group", { empty: true, name: "rig" });
    run("move", { args: [10, 0, 0, "rig"] });
    run("rotate", { args: [0, 90, 0, "rig"] });
    run("polySphere", { position: [10, 0, 5] });
    expect(run("parent", ["pSphere1", "rig"])).toEqual(["pSphere1"]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      10, 0, 5,
    ]);
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[-5, 0, 0]]);
    expect(rounded(run("getAttr", ["pSphere1.rotate"]))).toEqual([[0, -90, 0]]);
    run("parent", { args: ["pSphere1"], world: true });
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[10, 0, 5]]);
    run("parent", { args: ["pSphere1", "rig"], relative: true });
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[10, 0, 5]]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      15, 0, -10,
    ]);
  });

  it("refuses cycles, shapes without the shape flag, and no-op parenting", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("group", { args: ["pSphere1"], n: "grp" });
    expect(() => run("parent", ["grp", "pSphere1"])).toThrow(/its own descendant/);
    expect(() => run("parent", ["pSphereShape1", "grp"])).toThrow(/shape: true/);
    expect(() => run("parent", ["pSphere1", "grp"])).toThrow(
      "Object 'pSphere1' is already a child of 'grp'.",
    );
    expect(() => run("parent", ["pSphere1"])).toThrow("parent: Not enough objects or values.");
  });

  it("parents the selection to its last item", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polyCube");
    run("select", ["pSphere1", "pCube1"]);
    run("parent");
    expect(run("listRelatives", { args: ["pSphere1"], parent: true })).toEqual(["pCube1"]);
  });
});

describe("createNode, hide and showHidden", () => {
  it("creates simulated node types, with a transform for shapes", () => {
    const { run } = sceneHarness();
    expect(run("createNode", ["multiplyDivide"])).toBe("multiplyDivide1");
    expect(run("createNode", { args: ["transform"], n: "root" })).toBe("root");
    expect(run("createNode", { args: ["locator"], parent: "root" })).toBe("locator1");
    expect(run("listRelatives", ["root"])).toEqual(["locator1"]);
    expect(run("createNode", ["mesh"])).toBe("mesh1");
    expect(run("listRelatives", { args: ["mesh1"], parent: true })).toEqual(["transform1"]);
    expect(() => run("createNode", ["nurbsSurface"])).toThrow(
      /Unknown object type: nurbsSurface\. Simulated types: /,
    );
  });

  it("hides and shows objects", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("hide", ["pCube1"]);
    expect(run("getAttr", ["pCube1.visibility"])).toBe(false);
    run("showHidden", ["pCube1"]);
    expect(run("getAttr", ["pCube1.v"])).toBe(true);
    run("hide", { allObjects: true });
    expect(run("getAttr", ["pCube1.v"])).toBe(false);
  });
});
