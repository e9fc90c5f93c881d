import { readFileSync } from "node:fs";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { beforeAll, expect, it } from "vitest";
import {
  pathOptionsOutputPath,
  pathOptionsText,
  pathOptionsVersion,
} from "../scripts/generate-path-options.mjs";

describeWithBlender("the generated path options", () => {
  beforeAll(() => {
    assertBlender();
  });

  it("are what the installed Blender's RNA says today", () => {
    const fresh = pathOptionsText({ blender: process.env["BLENDER_BIN"] ?? "blender" });
    const committed = readFileSync(pathOptionsOutputPath(pathOptionsVersion(fresh)), "utf8");
    expect(fresh).toBe(committed);
  });

  it("hold the options no subtype marks as paths", () => {
    const table = JSON.parse(readFileSync(pathOptionsOutputPath("3.4.1"), "utf8")) as {
      operators: Record<string, Record<string, string>>;
      types: Record<string, Record<string, string>>;
    };
    expect(table.operators["export_scene.gltf"]).toMatchObject({
      export_texture_dir: "folder",
      filepath: "file",
    });
    expect(table.types["NodeOutputFileSlotFile"]).toEqual({ path: "file" });
    expect(table.types["SceneRenderView"]).toEqual({ file_suffix: "name" });
    expect(table.types["FCurve"]).toBeUndefined();
  });
});
