import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

function populated() {
  const harness = sceneHarness();
  const { run } = harness;
  run("polySphere");
  run("polyCube");
  run("group", { args: ["pSphere1"], name: "grp" });
  run("pointLight");
  return harness;
}

describe("ls", () => {
  it("lists by type (derived types included), exactType and excludeType", () => {
    const { run } = populated();
    expect(run("ls", { type: "transform" })).toEqual(["pSphere1", "pCube1", "grp", "pointLight1"]);
    expect(run("ls", { type: "mesh" })).toEqual(["pSphereShape1", "pCubeShape1"]);
    expect(run("ls", { type: ["mesh", "pointLight"] })).toEqual([
      "pSphereShape1",
      "pCubeShape1",
      "pointLightShape1",
    ]);
    expect(run("ls", { type: "light" })).toEqual(["pointLightShape1"]);
    expect(run("ls", { exactType: "light" })).toEqual([]);
    expect(run("ls", { shapes: true, excludeType: "light" })).toEqual([
      "pSphereShape1",
      "pCubeShape1",
    ]);
  });

  it("lists the selection in order with sl / selection", () => {
    const { run } = populated();
    run("select", ["pCube1", "pSphere1"]);
    expect(run("ls", { sl: true })).toEqual(["pCube1", "pSphere1"]);
    expect(run("ls", { selection: true, long: true })).toEqual(["|pCube1", "|grp|pSphere1"]);
  });

  it("matches names, wildcards and paths; unknown names are skipped", () => {
    const { run } = populated();
    expect(run("ls", ["pS*"])).toEqual(["pSphere1", "pSphereShape1"]);
    expect(run("ls", { args: ["p*"], transforms: true })).toEqual([
      "pSphere1",
      "pCube1",
      "pointLight1",
    ]);
    expect(run("ls", ["nothing", "pCube1"])).toEqual(["pCube1"]);
    expect(run("ls", ["|grp|pSphere1"])).toEqual(["pSphere1"]);
    expect(run("ls", ["grp|*"])).toEqual(["pSphere1"]);
  });

  it("lists long names, DAG objects, assemblies, geometry, lights and types", () => {
    const { run } = populated();
    expect(run("ls", { long: true, type: "mesh" })).toEqual([
      "|grp|pSphere1|pSphereShape1",
      "|pCube1|pCubeShape1",
    ]);
    expect(run("ls", { dag: true, l: true })).toContain("|grp");
    expect(run("ls", { dag: true })).not.toContain("lambert1");
    expect(run("ls", { assemblies: true })).toEqual(["pCube1", "grp", "pointLight1"]);
    expect(run("ls", { geometry: true })).toEqual(["pSphereShape1", "pCubeShape1"]);
    expect(run("ls", { lights: true })).toEqual(["pointLightShape1"]);
    expect(run("ls", { materials: true })).toEqual(["lambert1"]);
    expect(run("ls", { args: ["pCube1"], showType: true })).toEqual(["pCube1", "transform"]);
    expect(run("ls", { type: "transform", head: 2 })).toEqual(["pSphere1", "pCube1"]);
  });

  it("lists hidden objects out of visible", () => {
    const { run } = populated();
    run("hide", ["grp"]);
    expect(run("ls", { visible: true, type: "transform" })).toEqual(["pCube1", "pointLight1"]);
  });
});

describe("listRelatives", () => {
  it("lists children, shapes, parents and descendants; null when there are none", () => {
    const { run } = populated();
    expect(run("listRelatives", ["grp"])).toEqual(["pSphere1"]);
    expect(run("listRelatives", { args: ["grp"], children: true, fullPath: true })).toEqual([
      "|grp|pSphere1",
    ]);
    expect(run("listRelatives", { args: ["pSphere1"], parent: true })).toEqual(["grp"]);
    expect(run("listRelatives", { args: ["pSphereShape1"], allParents: true })).toEqual([
      "pSphere1",
      "grp",
    ]);
    expect(run("listRelatives", { args: ["grp"], allDescendents: true })).toEqual([
      "pSphereShape1",
      "pSphere1",
    ]);
    expect(run("listRelatives", { args: ["grp"], ad: true, type: "mesh" })).toEqual([
      "pSphereShape1",
    ]);
    expect(run("listRelatives", { args: ["grp"], ad: true, s: true })).toEqual(["pSphereShape1"]);
    expect(run("listRelatives", { args: ["pCube1"], shapes: true, f: true })).toEqual([
      "|pCube1|pCubeShape1",
    ]);
    expect(run("listRelatives", { args: ["pCube1"], parent: true })).toBeNull();
    expect(() => run("listRelatives", ["ghost"])).toThrow("No object matches name: ghost");
  });
});

describe("objExists and nodeType", () => {
  it("tells whether nodes and attributes exist", () => {
    const { run } = populated();
    expect(run("objExists", ["pCube1"])).toBe(true);
    expect(run("objExists", "|grp|pSphere1")).toBe(true);
    expect(run("objExists", ["pCube1.translateX"])).toBe(true);
    expect(run("objExists", ["pCube1.tx"])).toBe(true);
    expect(run("objExists", ["pCube1.bogus"])).toBe(false);
    expect(run("objExists", ["ghost"])).toBe(false);
  });

  it("returns node types and the inheritance chain", () => {
    const { run } = populated();
    expect(run("nodeType", ["grp"])).toBe("transform");
    expect(run("nodeType", ["pointLightShape1"])).toBe("pointLight");
    expect(run("nodeType", { args: ["pointLightShape1"], inherited: true })).toEqual([
      "dependNode",
      "dagNode",
      "shape",
      "light",
      "pointLight",
    ]);
    expect(run("nodeType", { args: ["mesh"], isTypeName: true, i: true })).toEqual([
      "dependNode",
      "dagNode",
      "shape",
      "mesh",
    ]);
    expect(() => run("nodeType", ["ghost"])).toThrow(
      expect.objectContaining({ code: "NO_OBJECT" }),
    );
  });
});
