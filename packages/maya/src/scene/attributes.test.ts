import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sceneHarness } from "./__fixtures__/scene-harness.ts";
import { MayaScene } from "./maya-scene.ts";

const prototypeNames = ["__proto__", "constructor", "toString", "hasOwnProperty"];

function builtinsSnapshot(): unknown {
  return {
    prototypeKeys: Object.getOwnPropertyNames(Object.prototype).sort(),
    objectKeys: Object.getOwnPropertyNames(Object).sort(),
    emptyPrototype: Object.getPrototypeOf({}) === Object.prototype,
  };
}

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("attribute names that collide with Object.prototype", () => {
  it("are unknown attributes, and reading or writing them leaves the host's built-ins alone", () => {
    const before = builtinsSnapshot();
    const { run } = sceneHarness();
    run("polySphere", { name: "victim" });
    for (const name of prototypeNames) {
      expect(() => run("setAttr", { args: [`victim.${name}`, 1] }), name).toThrow(
        expect.objectContaining({ code: "NO_OBJECT" }),
      );
      expect(() => run("getAttr", { args: [`victim.${name}`] }), name).toThrow(
        expect.objectContaining({ code: "NO_OBJECT" }),
      );
    }
    expect(builtinsSnapshot()).toEqual(before);
  });

  it("can be added as dynamic attributes without touching Object.prototype", () => {
    const before = builtinsSnapshot();
    const { run } = sceneHarness();
    run("polySphere", { name: "victim" });
    run("addAttr", { args: ["victim"], longName: "__proto__", attributeType: "double" });
    run("setAttr", { args: ["victim.__proto__", 7] });
    expect(run("getAttr", { args: ["victim.__proto__"] })).toBe(7);
    expect(run("listAttr", { args: ["victim"], userDefined: true })).toEqual(["__proto__"]);
    expect(builtinsSnapshot()).toEqual(before);
  });

  it("stay inert in a scene file read back from disk", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-scene-proto-"));
    scratch.push(dataDir);
    const before = builtinsSnapshot();
    const scene = new MayaScene({ dataDir });
    scene.execute("polySphere", { name: "victim" });
    scene.execute("addAttr", {
      args: ["victim"],
      longName: "constructor",
      attributeType: "double",
    });
    scene.execute("file", { rename: "proto.json" });
    scene.execute("file", { save: true });
    scene.execute("file", { args: ["proto.json"], open: true, force: true });
    scene.execute("setAttr", { args: ["victim.constructor", 3] });
    expect(scene.execute("getAttr", { args: ["victim.constructor"] })).toBe(3);
    expect(() => scene.execute("setAttr", { args: ["victim.__proto__", 1] })).toThrow(
      expect.objectContaining({ code: "NO_OBJECT" }),
    );
    expect(builtinsSnapshot()).toEqual(before);
  });
});
