import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sceneHarness } from "../__fixtures__/scene-harness.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "dcc-scene-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("file", () => {
  it("saves, clears and reopens a scene as JSON in the data folder", () => {
    const { run } = sceneHarness({ dataDir });
    run("polySphere", { position: [1, 2, 3] });
    run("group", { args: ["pSphere1"], name: "grp" });
    run("setKeyframe", { args: ["pSphere1"], at: "tx", t: 10, v: 5 });
    expect(run("file", { rename: "shots/intro" })).toBe("shots/intro.json");
    expect(run("file", { save: true })).toBe("shots/intro.json");
    expect(JSON.parse(readFileSync(join(dataDir, "shots/intro.json"), "utf8"))).toMatchObject({
      format: "dcc-reference-server/maya-scene",
      version: 1,
    });
    expect(run("file", { q: true, sceneName: true })).toBe("shots/intro.json");
    expect(run("file", { q: true, modified: true })).toBe(false);
    run("file", { new: true });
    expect(run("ls", { dag: true })).toEqual([]);
    expect(run("file", { q: true, sn: true })).toBe("");
    expect(run("file", { args: ["shots/intro.json"], open: true })).toBe("shots/intro.json");
    expect(run("ls", { args: ["pSphere1"], long: true })).toEqual(["|grp|pSphere1"]);
    expect(run("getAttr", { args: ["pSphere1.tx"], t: 10 })).toBe(5);
    expect(run("file", { q: true, list: true })).toEqual(["shots/intro.json"]);
    expect(run("file", { args: ["shots/intro.json"], q: true, exists: true })).toBe(true);
    expect(run("file", { args: ["nope.json"], q: true, exists: true })).toBe(false);
  });

  it("refuses to drop unsaved changes without force", () => {
    const { run } = sceneHarness({ dataDir });
    run("polyCube");
    expect(() => run("file", { new: true })).toThrow(
      expect.objectContaining({
        code: "INVALID_STATE",
        message: expect.stringMatching(/^Unsaved changes/),
      }),
    );
    run("file", { new: true, force: true });
    expect(run("ls", { type: "transform" })).toEqual([]);
    expect(() => run("file", { save: true })).toThrow(/has no name yet/);
  });

  it("confines paths to the data folder", () => {
    const { run } = sceneHarness({ dataDir });
    for (const name of ["../escape", "/etc/passwd", "a/../../b", ""]) {
      expect(() => run("file", { rename: name })).toThrow(
        expect.objectContaining({ code: "FILE_ERROR" }),
      );
    }
    expect(() => run("file", { args: ["../x.json"], open: true, f: true })).toThrow(
      /outside the data folder/,
    );
  });

  it("reports missing and foreign files, and works only with a data folder", () => {
    const { run } = sceneHarness({ dataDir });
    expect(() => run("file", { args: ["missing.json"], o: true })).toThrow(
      "File not found: missing.json",
    );
    writeFileSync(join(dataDir, "other.json"), '{"hello": 1}');
    expect(() => run("file", { args: ["other.json"], o: true })).toThrow(
      /not a scene saved by this server/,
    );
    const bare = sceneHarness();
    expect(() => bare.run("file", { rename: "a" })).toThrow(/without a data folder/);
  });
});

describe("undo and redo", () => {
  it("undoes and redoes commands one by one, selection included", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("move", [1, 0, 0, "pSphere1"]);
    run("select", { clear: true });
    expect(run("undoInfo", { q: true, undoName: true })).toBe("select");
    expect(run("undo")).toBe("select");
    expect(run("ls", { sl: true })).toEqual(["pSphere1"]);
    expect(run("undo")).toBe("move");
    expect(run("getAttr", ["pSphere1.tx"])).toBe(0);
    expect(run("undo")).toBe("polySphere");
    expect(run("ls", { type: "transform" })).toEqual([]);
    expect(run("undo")).toBeNull();
    expect(run("undoInfo", { q: true, redoName: true })).toBe("polySphere");
    expect(run("redo")).toBe("polySphere");
    expect(run("redo")).toBe("move");
    expect(run("getAttr", ["pSphere1.tx"])).toBe(1);
    run("polyCube");
    expect(run("undoInfo", { q: true, redoQueueEmpty: true })).toBe(true);
    expect(run("redo")).toBeNull();
  });

  it("does not record queries or failed commands, and leaves the scene as it was after a failure", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("ls");
    run("getAttr", ["pSphere1.tx"]);
    expect(() => run("parent", ["pSphere1", "ghost"])).toThrow();
    expect(() => run("setAttr", ["pSphere1.translate", 1, 2])).toThrow();
    expect(run("undo")).toBe("polySphere");
    expect(run("undoInfo", { q: true, undoQueueEmpty: true })).toBe(true);
  });

  it("groups commands into one undo step with chunks", () => {
    const { run } = sceneHarness();
    run("undoInfo", { openChunk: true, chunkName: "build" });
    run("polySphere");
    run("polyCube");
    run("undoInfo", { closeChunk: true });
    expect(run("undo")).toBe("build");
    expect(run("ls", { type: "transform" })).toEqual([]);
  });

  it("stops recording when undo is off and caps the queue length", () => {
    const { run } = sceneHarness();
    run("undoInfo", { state: false });
    run("polySphere");
    expect(run("undo")).toBeNull();
    expect(run("undoInfo", { q: true, state: true })).toBe(false);
    run("undoInfo", { state: true, length: 2 });
    run("polyCube");
    run("polyCube");
    run("polyCube");
    expect(run("undo")).toBe("polyCube");
    expect(run("undo")).toBe("polyCube");
    expect(run("undo")).toBeNull();
    expect(run("ls", { type: "transform" })).toEqual(["pSphere1", "pCube1"]);
  });

  it("flushes the queue on file new", () => {
    const { run } = sceneHarness();
    run("polySphere");
    run("file", { new: true, force: true });
    expect(run("undo")).toBeNull();
  });
});
