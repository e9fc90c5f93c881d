import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { existingFile, isInside, resolveHostPath, shownPath } from "./approval-paths.ts";

const dataDir = mkdtempSync(join(tmpdir(), "dcc-approval-paths-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("resolveHostPath", () => {
  it("takes relative paths from the data folder, and // from the open file's folder inside it", () => {
    const base = { dataDir, blendFile: join(dataDir, "shots", "a.blend") };
    expect(resolveHostPath("out/x.fbx", base)).toBe(join(dataDir, "out", "x.fbx"));
    expect(resolveHostPath("//x.fbx", base)).toBe(join(dataDir, "shots", "x.fbx"));
    expect(resolveHostPath("//x.fbx", { dataDir, blendFile: "" })).toBe(join(dataDir, "x.fbx"));
    // An open file outside the data folder does not move `//` out of it.
    expect(resolveHostPath("//x.fbx", { dataDir, blendFile: "/elsewhere/a.blend" })).toBe(
      join(dataDir, "x.fbx"),
    );
    expect(resolveHostPath("/abs/x.fbx", base)).toBe("/abs/x.fbx");
  });
});

describe("existingFile", () => {
  it("finds the file a write would replace, and nothing for a new one or a folder", async () => {
    mkdirSync(join(dataDir, "exports", "folder.obj"), { recursive: true });
    writeFileSync(join(dataDir, "exports", "scene.glb"), "x");
    writeFileSync(join(dataDir, "exports", "cube.obj"), "x");
    expect(await existingFile(join(dataDir, "exports", "cube.obj"))).toBe(
      join(dataDir, "exports", "cube.obj"),
    );
    expect(await existingFile(join(dataDir, "exports", "new.obj"))).toBeUndefined();
    expect(await existingFile(join(dataDir, "exports", "folder.obj"))).toBeUndefined();
    expect(await existingFile(join(dataDir, "missing", "x.obj"))).toBeUndefined();
    // Without an extension, the exporter may add its own.
    expect(await existingFile(join(dataDir, "exports", "scene"))).toBe(
      join(dataDir, "exports", "scene.glb"),
    );
    expect(await existingFile(join(dataDir, "exports", "other"))).toBeUndefined();
  });
});

describe("shownPath and isInside", () => {
  it("shows a path in the data folder relative to it, any other whole", () => {
    expect(shownPath(dataDir, join(dataDir, "a", "b.blend"))).toBe(join("a", "b.blend"));
    expect(shownPath(dataDir, "/elsewhere/b.blend")).toBe("/elsewhere/b.blend");
    expect(isInside(dataDir, `${dataDir}-other`)).toBe(false);
    expect(isInside(dataDir, join(dataDir, "..x"))).toBe(true);
  });
});
