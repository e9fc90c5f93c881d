import { describe, expect, it } from "vitest";
import { rounded, sceneHarness } from "../__fixtures__/scene-harness.ts";

function underRotatedParent() {
  const harness = sceneHarness();
  const { run } = harness;
  run("group", { empty: true, name: "rig" });
  run("xform", { args: ["rig"], t: [0, 5, 0], ro: [0, 90, 0], s: [2, 2, 2] });
  run("polySphere");
  run("parent", { args: ["pSphere1", "rig"], relative: true });
  return harness;
}

describe("move", () => {
  it("moves to an absolute world position by default, and by an offset with relative", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("move", [1, 2, 3, "pCube1"]);
    expect(run("getAttr", ["pCube1.translate"])).toEqual([[1, 2, 3]]);
    run("move", { args: [1, 0, 0, "pCube1"], r: true });
    expect(run("getAttr", ["pCube1.translate"])).toEqual([[2, 2, 3]]);
    run("move", { args: [[0, 1, 0], "pCube1"], relative: true });
    expect(run("getAttr", ["pCube1.ty"])).toBe(3);
  });

  it("moves the selection and honours the axis flags", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("move", { args: [5, 6, 7], y: true });
    expect(run("getAttr", ["pCube1.translate"])).toEqual([[0, 6, 0]]);
  });

  it("works in world space under a rotated and scaled parent", () => {
    const { run } = underRotatedParent();
    run("move", [1, 5, 0, "pSphere1"]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      1, 5, 0,
    ]);
    // World +X is the parent's local +Z after a 90° Y rotation, halved by the scale of 2.
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[0, 0, 0.5]]);
    run("move", { args: [0, 0, 1, "pSphere1"], r: true, ls: true });
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[0, 0, 1.5]]);
    run("move", { args: [1, 0, 0, "pSphere1"], r: true, os: true });
    // Object-space +X of the sphere is world -Z (parent rotated 90° about Y).
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      3, 5, -1,
    ]);
  });

  it("fails clearly without three numbers or on a non-transform", () => {
    const { run } = sceneHarness();
    run("polyCube");
    expect(() => run("move", [1, 2, "pCube1"])).toThrow(/expects three numbers/);
    expect(() => run("move", [1, 2, 3, "pCubeShape1"])).toThrow(/is not a transform/);
    expect(() => run("move", [1, 2, 3, "ghost"])).toThrow("No object matches name: ghost");
  });
});

describe("rotate and scale", () => {
  it("sets and adds rotations", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("rotate", [0, 45, 0, "pCube1"]);
    run("rotate", { args: [10, 0, 0, "pCube1"], relative: true });
    expect(run("getAttr", ["pCube1.rotate"])).toEqual([[10, 45, 0]]);
    run("rotate", { args: [0, 0, 30, "pCube1"], z: true });
    expect(run("getAttr", ["pCube1.rotate"])).toEqual([[10, 45, 30]]);
  });

  it("sets a world-space rotation under a rotated parent", () => {
    const { run } = underRotatedParent();
    run("rotate", { args: [0, 0, 0, "pSphere1"], ws: true });
    expect(rounded(run("getAttr", ["pSphere1.rotate"]))).toEqual([[0, -90, 0]]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, ro: true }))).toEqual([
      0, 0, 0,
    ]);
  });

  it("sets and multiplies scale", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("scale", [2, 2, 2, "pCube1"]);
    run("scale", { args: [1.5, 1, 0.5, "pCube1"], r: true });
    expect(run("getAttr", ["pCube1.scale"])).toEqual([[3, 2, 1]]);
  });
});

describe("xform", () => {
  it("queries translation, rotation, scale and the matrix in object and world space", () => {
    const { run } = underRotatedParent();
    run("xform", { args: ["pSphere1"], t: [1, 0, 0] });
    expect(run("xform", { args: ["pSphere1"], q: true, t: true })).toEqual([1, 0, 0]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      0, 5, -2,
    ]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, ro: true }))).toEqual([
      0, 90, 0,
    ]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, s: true }))).toEqual([
      2, 2, 2,
    ]);
    expect(run("xform", { args: ["pSphere1"], q: true, m: true })).toEqual([
      1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1,
    ]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, matrix: true }))).toEqual([
      0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 5, -2, 1,
    ]);
  });

  it("sets world translation and rotation under a parent, and relative values", () => {
    const { run } = underRotatedParent();
    run("xform", { args: ["pSphere1"], ws: true, t: [4, 5, 0] });
    expect(rounded(run("getAttr", ["pSphere1.translate"]))).toEqual([[0, 0, 2]]);
    run("xform", { args: ["pSphere1"], ws: true, r: true, t: [0, 1, 0] });
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      4, 6, 0,
    ]);
    run("xform", { args: ["pSphere1"], ws: true, ro: [0, 0, 0] });
    expect(rounded(run("getAttr", ["pSphere1.rotate"]))).toEqual([[0, -90, 0]]);
    run("xform", { args: ["pSphere1"], r: true, ro: [0, 10, 0] });
    expect(rounded(run("getAttr", ["pSphere1.ry"]))).toBe(-80);
    run("xform", { args: ["pSphere1"], s: [2, 1, 1] });
    run("xform", { args: ["pSphere1"], r: true, s: [2, 2, 2] });
    expect(run("getAttr", ["pSphere1.scale"])).toEqual([[4, 2, 2]]);
  });

  it("queries several objects as one flat list, and the selection by default", () => {
    const { run } = sceneHarness();
    run("polyCube", { position: [1, 2, 3] });
    run("polySphere", { position: [4, 5, 6] });
    expect(run("xform", { args: ["pCube1", "pSphere1"], q: true, t: true })).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(run("xform", { q: true, ws: true, t: true })).toEqual([4, 5, 6]);
  });

  it("sets a matrix in object or world space", () => {
    const { run } = underRotatedParent();
    run("xform", {
      args: ["pSphere1"],
      ws: true,
      m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1],
    });
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, t: true }))).toEqual([
      7, 8, 9,
    ]);
    expect(rounded(run("xform", { args: ["pSphere1"], q: true, ws: true, ro: true }))).toEqual([
      0, 0, 0,
    ]);
    expect(() => run("xform", { args: ["pSphere1"], m: [1, 2] })).toThrow(/16 numbers/);
    expect(() => run("xform", { args: ["pSphere1"], q: true })).toThrow(/say what to query/);
  });

  it("refuses to move a locked channel", () => {
    const { run } = sceneHarness();
    run("polyCube");
    run("setAttr", { args: ["pCube1.translate"], lock: true });
    expect(() => run("move", [1, 1, 1, "pCube1"])).toThrow(
      "setAttr: The attribute 'pCube1.translate' is locked or connected and cannot be modified.",
    );
    expect(run("getAttr", ["pCube1.translate"])).toEqual([[0, 0, 0]]);
  });
});
