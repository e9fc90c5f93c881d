import { approvalRuleNames } from "@dcc/executor";
import { describe, expect, it } from "vitest";
import { BLENDER_TESTED_VERSIONS, blenderOperatorData } from "../../blender-operator-data.ts";
import { reviewedOperators } from "../../internal/operator-policy.ts";
import { callArguments, countedNames, singularOf } from "./approval-host.ts";
import { blenderApprovalRules } from "./blender-approval-rules.ts";
import { deleteOperators } from "./delete-rule.ts";
import { openOperators } from "./open-rule.ts";
import { isExporter } from "./overwrite-rule.ts";
import { renderOperators } from "./render-rule.ts";

const rules = blenderApprovalRules({
  dataDir: () => "/data",
  operatorNames: () => reviewedOperators(),
  call: () => Promise.reject(new Error("no Blender in this test")),
});
const byName = new Map(rules.map((rule) => [rule.name, rule]));

describe("blenderApprovalRules", () => {
  it("declares the four shared rules, each with a description and a summary", () => {
    expect(rules.map((rule) => rule.name)).toEqual(Object.values(approvalRuleNames));
    for (const rule of rules) {
      expect(rule.description).not.toBe("");
      expect(rule.covers).toBeTypeOf("function");
    }
  });

  it("names only operators of the tested Blenders, and the core ones of every version", () => {
    const reviewed = reviewedOperators();
    for (const rule of rules) {
      for (const command of rule.commands) {
        if (command === "data.call") continue;
        expect(reviewed.has(command), `${rule.name}: ${command}`).toBe(true);
      }
    }
    const core = [
      "object.delete",
      "outliner.delete",
      "wm.save_mainfile",
      "wm.save_as_mainfile",
      "export_scene.fbx",
      "export_scene.gltf",
      "wm.obj_export",
      "wm.open_mainfile",
      "wm.read_homefile",
      "wm.read_factory_settings",
      "wm.revert_mainfile",
      "render.render",
      "render.opengl",
      "object.bake",
      "ptcache.bake",
      "fluid.bake_all",
    ];
    for (const version of BLENDER_TESTED_VERSIONS) {
      const names = new Set(blenderOperatorData({ version }).operators.map((op) => op.name));
      for (const name of core) expect(names.has(name), `${name} in ${version}`).toBe(true);
      // Each version's exporters are under overwrite (STL and PLY moved to wm.* in 4.x).
      const exporters = [...names].filter((name) => /export/.test(name) && isExporter(name));
      expect(exporters.length).toBeGreaterThan(3);
      for (const name of exporters) {
        expect(byName.get("overwrite")?.commands, `${name} in ${version}`).toContain(name);
      }
    }
  });

  it("covers data.call under delete and overwrite (removals and image saves), not under open or render", () => {
    expect(byName.get("delete")?.commands).toContain("data.call");
    expect(byName.get("overwrite")?.commands).toContain("data.call");
    expect(byName.get("open")?.commands).toEqual(openOperators);
    expect(byName.get("render")?.commands).toEqual(renderOperators);
    expect(byName.get("delete")?.commands).toEqual([...deleteOperators, "data.call"]);
    expect(byName.get("render")?.commands).not.toContain("viewport.screenshot");
  });

  it("keeps exporter management apart from exporters", () => {
    expect(isExporter("collection.exporter_add")).toBe(false);
    expect(isExporter("collection.exporter_remove")).toBe(false);
    expect(isExporter("wm.stl_export")).toBe(true);
    expect(isExporter("export_scene.x3d")).toBe(true);
    expect(isExporter("wm.grease_pencil_export_svg")).toBe(true);
    expect(isExporter("object.delete")).toBe(false);
  });

  it("covers a call plainly when Blender cannot be asked (a throw asks the question)", async () => {
    const signal = new AbortController().signal;
    await expect(
      byName.get("delete")?.covers?.({ command: "object.delete", args: {}, signal }),
    ).rejects.toThrow("no Blender");
    // What needs no Blender is answered without it.
    expect(
      await byName.get("delete")?.covers?.({
        command: "data.call",
        args: { path: "objects.remove", args: [{ $path: 'objects["Cube"]' }] },
        signal,
      }),
    ).toBe("delete 1 object: Cube");
    expect(
      await byName.get("delete")?.covers?.({
        command: "data.call",
        args: { path: "meshes.remove", kwargs: { mesh: { $path: "meshes['Plane']" } } },
        signal,
      }),
    ).toBe("delete 1 mesh: Plane");
    expect(
      await byName.get("delete")?.covers?.({
        command: "data.call",
        args: { path: 'objects["Cube"].modifiers.remove', args: [] },
        signal,
      }),
    ).toBeUndefined();
    expect(
      await byName
        .get("overwrite")
        ?.covers?.({ command: "data.call", args: { path: "objects.new" }, signal }),
    ).toBeUndefined();
  });
});

describe("the render rule", () => {
  it("words every bake it covers", async () => {
    const signal = new AbortController().signal;
    const host = ["render.render", "render.opengl", "object.bake", "object.bake_image"];
    for (const command of renderOperators.filter((name) => !host.includes(name))) {
      const summary = await byName.get("render")?.covers?.({ command, args: {}, signal });
      expect(summary, command).toMatch(
        new RegExp(`^bake .+ \\(${command.replace(".", "\\.")}\\)$`),
      );
    }
  });
});

describe("callArguments", () => {
  it("keeps only a list of arguments and an object of keyword arguments", () => {
    expect(callArguments({ args: [1], kwargs: { a: 2 } })).toEqual({
      given: [1],
      kwargs: { a: 2 },
    });
    expect(callArguments({ args: "abc", kwargs: [1] })).toEqual({ given: [], kwargs: {} });
  });
});

describe("countedNames", () => {
  it("counts, names up to ten and says how many more", () => {
    expect(countedNames("object", ["Cube"])).toBe("1 object: Cube");
    expect(countedNames("mesh", ["A", "B"])).toBe("2 meshes: A, B");
    expect(singularOf("libraries")).toBe("library");
    expect(singularOf("node_groups")).toBe("node group");
    expect(singularOf("meshes")).toBe("mesh");
    const many = Array.from({ length: 12 }, (_, i) => `E${i}`);
    expect(countedNames("object", many)).toBe(
      "12 objects: E0, E1, E2, E3, E4, E5, E6, E7, E8, E9 and 2 more",
    );
  });
});
