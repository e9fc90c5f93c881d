import { describe, expect, it } from "vitest";
import { dataBlockOf, dataCallKind, dataPathSteps } from "./data-call-path.ts";

describe("dataCallKind", () => {
  it("finds the removal of a data-block from its bpy.data collection", () => {
    expect(dataCallKind("objects.remove")).toEqual({ kind: "remove", collection: "objects" });
    expect(dataCallKind("node_groups.remove")).toEqual({
      kind: "remove",
      collection: "node_groups",
    });
    expect(dataCallKind("context.blend_data.meshes.remove")).toEqual({
      kind: "remove",
      collection: "meshes",
    });
    expect(dataCallKind("context.blend_data.batch_remove")).toEqual({ kind: "batch-remove" });
    expect(dataCallKind("context.blend_data.orphans_purge")).toEqual({ kind: "purge" });
  });

  it("finds an image's save and save_render", () => {
    expect(dataCallKind('images["Render Result"].save_render')).toEqual({
      kind: "image-save",
      image: "Render Result",
      function: "save_render",
    });
    expect(dataCallKind("images['a\\'b'].save")).toEqual({
      kind: "image-save",
      image: "a'b",
      function: "save",
    });
  });

  it("leaves other calls alone: parts of a data-block, creations, context paths", () => {
    for (const path of [
      'objects["Cube"].modifiers.remove',
      'materials["M"].node_tree.nodes.remove',
      "objects.new",
      'objects["remove"]',
      "context.scene.objects.remove",
      'images["x"].pack',
      "objects.remove(",
      42,
      undefined,
    ]) {
      expect(dataCallKind(path), String(path)).toBeUndefined();
    }
  });
});

describe("dataPathSteps and dataBlockOf", () => {
  it("reads the steps as the host's parser does", () => {
    expect(dataPathSteps('objects["Cu\\"be"].data.vertices[0]')).toEqual([
      { kind: "attr", value: "objects" },
      { kind: "key", value: 'Cu"be' },
      { kind: "attr", value: "data" },
      { kind: "attr", value: "vertices" },
      { kind: "index", value: 0 },
    ]);
    expect(dataPathSteps("objects[Cube]")).toBeUndefined();
    expect(dataPathSteps("")).toBeUndefined();
  });

  it("names the data-block a path names directly", () => {
    expect(dataBlockOf('objects["Cube"]')).toEqual({ collection: "objects", name: "Cube" });
    expect(dataBlockOf("meshes['\\u00e9']")).toEqual({ collection: "meshes", name: "é" });
    expect(dataBlockOf("context.active_object")).toBeUndefined();
    expect(dataBlockOf('objects["Cube"].data')).toBeUndefined();
  });
});
