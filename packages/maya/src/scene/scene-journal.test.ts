import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sceneHarness } from "./__fixtures__/scene-harness.ts";

// Every mutating command, some several times, so that each change site is journaled.
const steps: Array<[string, unknown]> = [
  ["polySphere", { position: [1, 0, 0] }],
  ["polyCube", { name: "box" }],
  ["polyCylinder", {}],
  ["polyPlane", { w: 5 }],
  ["polyCone", {}],
  ["polyTorus", {}],
  ["polySphere", { args: ["pSphere1"], e: true, radius: 3 }],
  ["select", ["pSphere1", "box"]],
  ["rename", ["box", "crate"]],
  ["group", { args: ["pSphere1", "crate"], name: "grp" }],
  ["move", { args: [0, 2, 0, "grp"], r: true }],
  ["rotate", [0, 45, 0, "grp"]],
  ["scale", [2, 2, 2, "pCone1"]],
  ["xform", { args: ["pSphere1"], ws: true, t: [3, 3, 3] }],
  ["parent", ["pCone1", "grp"]],
  ["parent", { args: ["pCone1"], world: true }],
  ["duplicate", ["grp"]],
  ["setAttr", ["crate.tx", 4]],
  ["setAttr", { args: ["crate.ty"], lock: true }],
  ["addAttr", { args: ["crate"], ln: "speed", k: true }],
  ["addAttr", { args: ["crate"], ln: "aim", at: "double3" }],
  ["deleteAttr", ["crate.aim"]],
  ["connectAttr", ["crate.speed", "pTorus1.tx"]],
  ["connectAttr", { args: ["crate.tx", "pCone1.ty"], lock: true }],
  ["disconnectAttr", ["crate.speed", "pTorus1.tx"]],
  ["setKeyframe", { args: ["pTorus1"], at: "ty", t: 1, v: 0 }],
  ["setKeyframe", { args: ["pTorus1"], at: "ty", t: 10, v: 5 }],
  ["keyframe", { args: ["pTorus1"], e: true, r: true, tc: 2 }],
  ["cutKey", { args: ["pTorus1"], t: [1, 5] }],
  ["shadingNode", { args: ["blinn"], asShader: true, name: "red" }],
  ["sets", { renderable: true, noSurfaceShader: true, empty: true, name: "redSG" }],
  ["connectAttr", ["red.outColor", "redSG.surfaceShader"]],
  ["sets", { args: ["crate", "pCone1"], e: true, forceElement: "redSG" }],
  ["sets", { args: ["pCone1"], remove: "redSG" }],
  ["select", ["pPlane1"]],
  ["hyperShade", { assign: "red" }],
  ["sets", { name: "props", args: ["pCylinder1"] }],
  ["sets", { clear: "props" }],
  ["createNode", { args: ["multiplyDivide"], n: "md" }],
  ["camera", { p: [0, 0, 10] }],
  ["camera", { args: ["camera1"], e: true, fl: 85 }],
  ["pointLight", { intensity: 2 }],
  ["spaceLocator", { p: [1, 1, 1] }],
  ["hide", ["pCylinder1"]],
  ["showHidden", ["pCylinder1"]],
  ["delete", ["grp1"]],
  ["delete", { args: ["pPlane1"], ch: true }],
  ["delete", ["pTorus1"]],
];

describe("undo journal", () => {
  it("restores exactly the previous state after each command, and redo the next", () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-journal-"));
    try {
      const { scene, run } = sceneHarness({ dataDir: folder });
      const states: unknown[] = [structuredClone(scene.graph.state)];
      for (const [name, args] of steps) {
        run(name, args);
        states.push(structuredClone(scene.graph.state));
      }
      for (let index = steps.length; index > 0; index--) {
        expect(scene.undo(), `undo ${steps[index - 1]?.[0]}`).toBe(steps[index - 1]?.[0]);
        expect(scene.graph.state, `state before step ${index}`).toEqual(states[index - 1]);
      }
      for (let index = 1; index <= steps.length; index++) {
        scene.redo();
        expect(scene.graph.state, `state after redoing step ${index}`).toEqual(states[index]);
      }
      // Names stay resolvable after undo and redo swapped node objects.
      expect(run("objExists", ["crate"])).toBe(true);
      expect(run("getAttr", ["crate.tx"])).toBe(4);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("rolls back a command that fails halfway", () => {
    const { scene, run } = sceneHarness();
    run("polySphere");
    run("polyCube");
    run("setAttr", { args: ["pCube1.tx"], lock: true });
    const before = structuredClone(scene.graph.state);
    // The sphere moves first, then the locked cube stops the command.
    expect(() => run("move", [1, 2, 3, "pSphere1", "pCube1"])).toThrow(/locked/);
    expect(scene.graph.state).toEqual(before);
    expect(() => run("delete", ["pSphere1", "lambert1"])).toThrow(/locked node/);
    expect(scene.graph.state).toEqual(before);
  });

  it("keeps large scenes fast: undo cost follows the change, not the scene", () => {
    const { run } = sceneHarness();
    for (let i = 0; i < 1000; i++) run("polySphere", { position: [i, 0, 0] });
    expect(run("ls", { type: "transform" })).toHaveLength(1000);
    expect(run("undo")).toBe("polySphere");
    expect(run("ls", { type: "transform" })).toHaveLength(999);
  });
});
