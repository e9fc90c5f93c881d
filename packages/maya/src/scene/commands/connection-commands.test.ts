import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

function twoCubes() {
  const harness = sceneHarness();
  harness.run("polyCube");
  harness.run("polyCube");
  return harness;
}

describe("connectAttr and disconnectAttr", () => {
  it("makes the destination follow the source, scalar or compound", () => {
    const { run } = twoCubes();
    expect(run("connectAttr", ["pCube1.tx", "pCube2.ty"])).toBe(
      "Connected pCube1.translateX to pCube2.translateY.",
    );
    run("setAttr", ["pCube1.tx", 7]);
    expect(run("getAttr", ["pCube2.ty"])).toBe(7);
    run("connectAttr", ["pCube1.rotate", "pCube2.rotate"]);
    run("setAttr", ["pCube1.rotate", 1, 2, 3]);
    expect(run("getAttr", ["pCube2.rotate"])).toEqual([[1, 2, 3]]);
    expect(run("getAttr", ["pCube2.rz"])).toBe(3);
    expect(() => run("setAttr", ["pCube2.ty", 1])).toThrow(/locked or connected/);
  });

  it("refuses a second input without force, and mismatched types", () => {
    const { run } = twoCubes();
    run("polySphere");
    run("connectAttr", ["pCube1.tx", "pCube2.tx"]);
    expect(() => run("connectAttr", ["pSphere1.tx", "pCube2.tx"])).toThrow(
      /already has an incoming connection from 'pCube1.translateX'/,
    );
    expect(() => run("connectAttr", ["pCube1.tx", "pCube2.tx"])).toThrow(/already connected/);
    run("connectAttr", { args: ["pSphere1.tx", "pCube2.tx"], force: true });
    run("setAttr", ["pSphere1.tx", 9]);
    expect(run("getAttr", ["pCube2.tx"])).toBe(9);
    expect(() => run("connectAttr", ["pCube1.translate", "pCube2.ty"])).toThrow(
      /incompatible types/,
    );
  });

  it("disconnects, and fails when there is nothing to disconnect", () => {
    const { run } = twoCubes();
    run("connectAttr", ["pCube1.tx", "pCube2.tx"]);
    run("disconnectAttr", ["pCube1.tx", "pCube2.tx"]);
    run("setAttr", ["pCube2.tx", 2]);
    expect(run("getAttr", ["pCube2.tx"])).toBe(2);
    expect(() => run("disconnectAttr", ["pCube1.tx", "pCube2.tx"])).toThrow(/no connection/);
  });

  it("computes multiplyDivide outputs and detects cycles", () => {
    const { run } = twoCubes();
    run("createNode", { args: ["multiplyDivide"], n: "md" });
    run("connectAttr", ["pCube1.translate", "md.input1"]);
    run("setAttr", ["md.input2", 2, 3, 4]);
    run("connectAttr", ["md.output", "pCube2.translate"]);
    run("setAttr", ["pCube1.translate", 1, 1, 1]);
    expect(run("getAttr", ["pCube2.translate"])).toEqual([[2, 3, 4]]);
    run("setAttr", ["md.operation", 2]);
    expect(run("getAttr", ["pCube2.tz"])).toBe(0.25);
    run("connectAttr", ["pCube2.translate", "pCube1.translate"]);
    expect(() => run("getAttr", ["pCube2.tx"])).toThrow(/Cycle detected/);
  });
});

describe("listConnections", () => {
  it("lists connected nodes or plugs by direction and type; null when none", () => {
    const { run } = twoCubes();
    run("connectAttr", ["pCube1.tx", "pCube2.ty"]);
    expect(run("listConnections", ["pCube1"])).toEqual(["pCube2"]);
    expect(
      run("listConnections", { args: ["pCube1"], destination: true, source: false, plugs: true }),
    ).toEqual(["pCube2.translateY"]);
    expect(run("listConnections", { args: ["pCube2.ty"], connections: true, p: true })).toEqual([
      "pCube2.translateY",
      "pCube1.translateX",
    ]);
    expect(run("listConnections", { args: ["pCube1"], s: true, d: false })).toBeNull();
    expect(run("listConnections", { args: ["pCube1"], type: "mesh" })).toBeNull();
    expect(run("listConnections", { args: ["pCubeShape1"], type: "polyCube" })).toEqual([
      "polyCube1",
    ]);
    expect(run("listConnections", { args: ["lambert1"], t: "shadingEngine" })).toEqual([
      "initialShadingGroup",
    ]);
  });
});
