import { describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

describe("shadingNode", () => {
  it("creates classified shading nodes with Maya naming", () => {
    const { run } = sceneHarness();
    expect(run("shadingNode", { args: ["lambert"], asShader: true })).toBe("lambert2");
    expect(run("shadingNode", { args: ["blinn"], as: true, name: "red" })).toBe("red");
    expect(run("shadingNode", { args: ["file"], asTexture: true })).toBe("file1");
    expect(run("shadingNode", { args: ["place2dTexture"], au: true })).toBe("place2dTexture1");
    expect(run("shadingNode", { args: ["pointLight"], asLight: true })).toBe("pointLight1");
    expect(run("ls", { materials: true })).toEqual(["lambert1", "lambert2", "red"]);
    run("setAttr", ["red.color", 1, 0, 0]);
    expect(run("getAttr", ["red.outColor"])).toEqual([[1, 0, 0]]);
  });

  it("requires a classification flag and a known type", () => {
    const { run } = sceneHarness();
    expect(() => run("shadingNode", ["lambert"])).toThrow(/You must specify a classification flag/);
    expect(() => run("shadingNode", { args: ["mentalRay"], asShader: true })).toThrow(
      /Unknown object type: mentalRay/,
    );
  });
});

describe("sets and hyperShade", () => {
  it("builds a shading group and assigns objects with forceElement", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polyCube");
    run("shadingNode", { args: ["blinn"], asShader: true, name: "red" });
    expect(
      run("sets", { renderable: true, noSurfaceShader: true, empty: true, name: "redSG" }),
    ).toBe("redSG");
    run("connectAttr", ["red.outColor", "redSG.surfaceShader"]);
    run("sets", { args: ["pSphere1", "pCube1"], e: true, forceElement: "redSG" });
    expect(run("sets", { args: ["redSG"], q: true })).toEqual(["pSphereShape1", "pCubeShape1"]);
    expect(run("sets", { args: ["initialShadingGroup"], q: true })).toBeNull();
    expect(run("listConnections", { args: ["redSG"], type: "blinn" })).toEqual(["red"]);
    expect(run("nodeType", ["redSG"])).toBe("shadingEngine");
    expect(run("sets", { args: ["pCube1"], isMember: "redSG" })).toBe(true);
    run("sets", { args: ["pCube1"], remove: "redSG" });
    expect(run("sets", { args: ["redSG"], q: true, size: true })).toBe(1);
    expect(() => run("sets", { args: ["pSphere1"], fe: "pCube1" })).toThrow(/is not a set/);
  });

  it("makes object sets of the selection and clears them", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("polyCube");
    run("select", ["pSphere1", "pCube1"]);
    expect(run("sets", { name: "props" })).toBe("props");
    expect(run("sets", { args: ["props"], q: true })).toEqual(["pSphere1", "pCube1"]);
    run("sets", { clear: "props" });
    expect(run("sets", { args: ["props"], q: true })).toBeNull();
    expect(run("sets", { empty: true })).toBe("set1");
  });

  it("assigns a material to the selection with hyperShade, creating its shading group", () => {
    const { run } = sceneHarness();
    run("polyTorus");
    run("shadingNode", { args: ["standardSurface"], asShader: true, name: "gold" });
    run("select", ["pTorus1"]);
    run("hyperShade", { assign: "gold" });
    expect(run("sets", { args: ["goldSG"], q: true })).toEqual(["pTorusShape1"]);
    run("select", { clear: true });
    run("hyperShade", { objects: "gold" });
    expect(run("ls", { sl: true })).toEqual(["pTorusShape1"]);
    expect(() => run("hyperShade", { assign: "pTorus1" })).toThrow(/is not a material/);
  });
});
