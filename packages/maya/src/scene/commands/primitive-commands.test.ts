import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

describe("polygon primitives", () => {
  it("return [transform, history] with Maya's auto-naming", () => {
    const { run } = sceneHarness();
    expect(run("polySphere")).toEqual(["pSphere1", "polySphere1"]);
    expect(run("polySphere", {})).toEqual(["pSphere2", "polySphere2"]);
    expect(run("polyCube")).toEqual(["pCube1", "polyCube1"]);
    expect(run("polyCylinder")).toEqual(["pCylinder1", "polyCylinder1"]);
    expect(run("polyPlane")).toEqual(["pPlane1", "polyPlane1"]);
    expect(run("polyCone")).toEqual(["pCone1", "polyCone1"]);
    expect(run("polyTorus")).toEqual(["pTorus1", "polyTorus1"]);
    expect(run("listRelatives", ["pSphere2"])).toEqual(["pSphereShape2"]);
    expect(run("nodeType", ["pSphereShape2"])).toBe("mesh");
  });

  it("honours name (n), with clashes numbered, and derives the shape name", () => {
    const { run } = sceneHarness();
    expect(run("polyCube", { n: "box" })).toEqual(["box", "polyCube1"]);
    expect(run("polyCube", { name: "box" })).toEqual(["box1", "polyCube2"]);
    expect(run("listRelatives", { args: ["box"], shapes: true })).toEqual(["boxShape"]);
    expect(() => run("polyCube", { name: "9lives" })).toThrow(/starts with a digit/);
  });

  it("reuses the first free number after a delete", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polySphere");
    run("delete", ["pSphere1"]);
    expect(run("polySphere")).toEqual(["pSphere1", "polySphere1"]);
  });

  it("places the object with the position convenience flag", () => {
    const { run } = sceneHarness();
    run("polySphere", { position: [1, 2, 3] });
    expect(run("getAttr", ["pSphere1.translate"])).toEqual([[1, 2, 3]]);
  });

  it("stores creation flags on the history node, short names and aliases included", () => {
    const { run } = sceneHarness();
    run("polySphere", { r: 2.5, sx: 8, sy: 6 });
    expect(run("getAttr", ["polySphere1.radius"])).toBe(2.5);
    expect(run("getAttr", ["polySphere1.subdivisionsAxis"])).toBe(8);
    expect(run("getAttr", ["polySphere1.sh"])).toBe(6);
    run("polyCube", { w: 2, h: 3, d: 4 });
    expect(run("polyCube", { args: ["pCube1"], q: true, height: true })).toBe(3);
    run("polyTorus", { sectionRadius: 0.2 });
    expect(run("getAttr", ["polyTorus1.sr"])).toBe(0.2);
  });

  it("queries and edits through the history node or the transform", () => {
    const { run } = sceneHarness();
    run("polySphere", { radius: 2 });
    expect(run("polySphere", { args: ["polySphere1"], query: true, radius: true })).toBe(2);
    run("polySphere", { args: ["pSphere1"], edit: true, radius: 4 });
    expect(run("polySphere", { args: ["pSphere1"], q: true, r: true })).toBe(4);
    expect(run("polySphere", { args: ["pSphere1"], q: true, axis: true })).toEqual([0, 1, 0]);
  });

  it("rejects positional arguments when creating, and commands that take none", () => {
    const { run } = sceneHarness();
    expect(() => run("polySphere", ["ball"])).toThrow(
      /polySphere takes no positional arguments when creating/,
    );
    expect(() => run("pointLight", [1])).toThrow(/takes no positional arguments when creating/);
    expect(() => run("undo", ["polySphere"])).toThrow(/undo takes no positional arguments/);
    expect(run("ls", { type: "transform" })).toEqual([]);
  });

  it("skips the history node with constructionHistory: false", () => {
    const { run } = sceneHarness();
    expect(run("polyPlane", { ch: false })).toEqual(["pPlane1"]);
    expect(run("ls", { type: "polyPlane" })).toEqual([]);
  });

  it("connects history to the shape, assigns the default shading group and selects the result", () => {
    const { run } = sceneHarness();
    run("polyCone");
    expect(
      run("listConnections", { args: ["pConeShape1"], source: true, destination: false }),
    ).toEqual(["polyCone1"]);
    expect(run("sets", { args: ["initialShadingGroup"], q: true })).toEqual(["pConeShape1"]);
    expect(run("ls", { sl: true })).toEqual(["pCone1"]);
  });
});
