import { describe, expect, it } from "vitest";
import { BLENDER_TESTED_VERSIONS, blenderOperatorData } from "./blender-operator-data.ts";

describe("blenderOperatorData of each tested Blender", () => {
  const names = (version: string) =>
    new Set(blenderOperatorData({ version }).operators.map((operator) => operator.name));

  it("holds that Blender's operators, and only them", () => {
    expect(BLENDER_TESTED_VERSIONS).toEqual(["3.4.1", "4.3.2", "5.2.2"]);
    expect(blenderOperatorData({ version: "4.3.2" }).blender).toBe("4.3.2");
    expect(blenderOperatorData({ version: "5.2.2 LTS" }).blender).toBe("5.2.2 LTS");
    expect(blenderOperatorData({ version: "5.2" })).toBe(blenderOperatorData({ version: "5.2.2" }));
    const v3 = names("3.4.1");
    const v4 = names("4.3.2");
    const v5 = names("5.2.2");
    expect(v3.has("export_scene.obj") && v3.has("export_mesh.stl")).toBe(true);
    for (const newer of [v4, v5]) {
      expect(newer.has("export_scene.obj") || newer.has("export_mesh.stl")).toBe(false);
      expect(newer.has("wm.stl_export") && newer.has("wm.ply_export")).toBe(true);
    }
    expect(v3.has("wm.stl_export")).toBe(false);
    expect(v5.has("object.shade_auto_smooth")).toBe(true);
    expect(blenderOperatorData({ version: "5.2.2" }).modes).toContain("EDIT_GREASE_PENCIL");
  });

  it("refuses a version none ships for, naming the tested ones", () => {
    expect(() => blenderOperatorData({ version: "2.93.0" })).toThrow(
      /no operator catalog ships for Blender "2.93.0": the tested versions are 3.4.1, 4.3.2, 5.2.2/,
    );
  });
});

describe("blenderOperatorData", () => {
  const data = blenderOperatorData();

  it("holds every operator of Blender 3.4.1, sorted by name, each with a label", () => {
    expect(data.blender).toBe("3.4.1");
    expect(data.operators).toHaveLength(2144);
    const names = data.operators.map((operator) => operator.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(names);
    for (const operator of data.operators) {
      expect(operator.name, operator.name).toMatch(/^[a-z0-9_]+\.[a-z0-9_]+$/);
      expect(typeof operator.label, operator.name).toBe("string");
    }
    expect(data.modes).toContain("EDIT_MESH");
    expect(data.areas).toContain("VIEW_3D");
  });

  it("types every parameter, with defaults, enum values, array lengths and ranges", () => {
    const sphere = data.operators.find((o) => o.name === "mesh.primitive_uv_sphere_add");
    expect(sphere?.params?.find((p) => p.name === "segments")).toEqual({
      name: "segments",
      type: "int",
      default: 32,
      min: 3,
      max: 100000,
    });
    expect(sphere?.params?.find((p) => p.name === "location")).toMatchObject({
      type: "float",
      subtype: "xyz_length",
      length: 3,
      default: [0, 0, 0],
    });
    expect(sphere?.params?.find((p) => p.name === "align")?.items).toEqual([
      "WORLD",
      "VIEW",
      "CURSOR",
    ]);
    const types = new Set(data.operators.flatMap((o) => (o.params ?? []).map((p) => p.type)));
    expect([...types].sort()).toEqual([
      "boolean",
      "collection",
      "enum",
      "float",
      "int",
      "pointer",
      "string",
    ]);
  });

  it("records where poll() passed, and the polls it skipped because they crash Blender", () => {
    const byName = new Map(data.operators.map((operator) => [operator.name, operator]));
    expect(byName.get("mesh.bevel")?.modes).toEqual(["EDIT_MESH"]);
    expect(byName.get("view3d.view_all")?.areas).toEqual(["VIEW_3D"]);
    expect(byName.get("wm.save_as_mainfile")?.modes).toBeUndefined();
    expect(data.skippedPolls).toContain("*/ui.view_drop");
  });

  it("holds nothing of the machine it was generated on", () => {
    const found = JSON.stringify(data).match(
      /.{0,40}(\/tmp\/|\/home\/|\/root\/|dcc-blender-dump).{0,40}/,
    );
    expect(found?.[0]).toBeUndefined();
  });

  it("is read once and frozen", () => {
    expect(blenderOperatorData()).toBe(data);
    expect(Object.isFrozen(data.operators[0])).toBe(true);
    expect(Object.isFrozen(data.operators[0]?.params ?? [])).toBe(true);
  });
});
