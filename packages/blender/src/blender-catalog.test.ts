import { DccApiCatalog } from "@dcc/catalog";
import { describe, expect, it } from "vitest";
import { createBlenderCatalog } from "./blender-catalog.ts";
import type { BlenderCommandRecord } from "./blender-command-record.ts";
import { blenderDataCommands } from "./blender-data-command.ts";
import { blenderOperatorData } from "./blender-operator-data.ts";
import { BLENDER_SYNONYMS } from "./blender-synonyms.ts";

const catalog = createBlenderCatalog();
const top = (query: string, limit = 5): string[] =>
  catalog.search(query, { limit }).map((record) => record.name);

describe("createBlenderCatalog", () => {
  it("holds every operator, then the data commands", () => {
    expect(catalog).toBeInstanceOf(DccApiCatalog);
    expect(catalog.dccName).toBe("blender");
    const operators = blenderOperatorData().operators.length;
    expect(catalog.size).toBe(operators + blenderDataCommands().length);
    const records = [...catalog];
    expect(records[0]?.name).toBe(blenderOperatorData().operators[0]?.name);
    expect(records.slice(operators).map((record) => record.name)).toEqual(
      blenderDataCommands().map((command) => command.name),
    );
  });

  it("ranks the viewport capture first when an agent asks to see the scene", () => {
    for (const query of [
      "capture an image of the viewport",
      "screenshot",
      "take a screenshot of the viewport",
    ]) {
      expect(top(query, 3)[0], query).toBe("viewport.screenshot");
    }
  });

  it("notes the operators the policy refuses by name, unless this host lifted the rule", () => {
    expect(catalog.get("script.python_file_run")).toMatchObject({
      policy: expect.stringMatching(/^refused unless the host lifts rule 'python-scripts': /),
    });
    expect(catalog.get("wm.quit_blender")).toMatchObject({
      policy: "refused unless the host lifts rule 'quit': it ends Blender",
    });
    expect(catalog.get("mesh.primitive_cube_add")).not.toHaveProperty("policy");
    // A search shows the note beside the command.
    const hit = catalog.search("run a python script file", { limit: 10 });
    expect(hit.find((record) => record.name === "script.python_file_run")).toHaveProperty("policy");

    const lifted = createBlenderCatalog({
      policy: { allow: ["python-scripts", "wm.quit_blender", "wm.url_*"] },
    });
    expect(lifted.get("script.python_file_run")).not.toHaveProperty("policy");
    expect(lifted.get("wm.quit_blender")).not.toHaveProperty("policy");
    // Lifted by a pattern the catalog does not match: the conditional note stays true.
    expect(lifted.get("wm.url_open")).toHaveProperty("policy");
    expect(lifted.get("wm.window_close")).toHaveProperty("policy");
  });

  it("gives each operator a signature, a description, its label and its context hint", () => {
    expect(catalog.get("mesh.bevel")).toMatchObject({
      kind: "operator",
      label: "Bevel",
      description: "Cut into selected items at an angle to create bevel or chamfer",
      context: "only in Edit Mode (mesh)",
      signature: expect.stringMatching(/^mesh\.bevel\(args\?: \{ offset_type\?: "OFFSET"/),
    });
    expect(catalog.get("mesh.primitive_cube_add")).not.toHaveProperty("context");
    expect(catalog.get("data.get")).toMatchObject({
      kind: "data",
      examples: expect.arrayContaining([expect.stringContaining("data.get")]),
    });
  });

  it("follows a poor description with the hand-written note, and stands in the label for none", () => {
    const origin = catalog.get("object.origin_set")?.description;
    expect(origin).toMatch(
      /^Set the object's origin, .*3D cursor\. Move an object's origin \(pivot/,
    );
    const undocumented = blenderOperatorData().operators.find(
      (operator) => operator.description === "(undocumented operator)",
    );
    expect(undocumented).toBeDefined();
    expect(catalog.get(undocumented?.name ?? "")?.description).toBe(undocumented?.label);
  });

  it("finds operators by their menu label", () => {
    expect(top("Merge by Distance", 3)).toContain("mesh.remove_doubles");
  });

  it("adds caller synonyms to the Blender ones, and can use the overlap ranker", () => {
    const extended = createBlenderCatalog({ synonyms: { bauble: ["icosphere"] } });
    expect(extended.search("bauble", { limit: 5 }).map((record) => record.name)).toContain(
      "mesh.primitive_ico_sphere_add",
    );
    expect(top("bauble")).not.toContain("mesh.primitive_ico_sphere_add");
    const overlap = createBlenderCatalog({ ranker: "overlap" });
    expect(overlap.ranker).toBe("overlap");
    expect(overlap.search("primitive_uv_sphere_add", { limit: 3 })[0]?.name).toBe(
      "mesh.primitive_uv_sphere_add",
    );
  });
});

describe("BLENDER_SYNONYMS", () => {
  it("maps single lower-case words to other words", () => {
    for (const [key, words] of Object.entries(BLENDER_SYNONYMS)) {
      expect(words.length, key).toBeGreaterThan(0);
      for (const word of [key, ...words]) expect(word, key).toMatch(/^[a-z]+$/);
      expect(words, key).not.toContain(key);
    }
  });

  it("finds what Blender names differently", () => {
    const bare = createBlenderCatalog({ synonyms: {} });
    expect(bare.search("pivot", { limit: 3 }).map((r) => r.name)).toContain("object.origin_set");
    expect(top("suzanne", 3)).toContain("mesh.primitive_monkey_add");
    expect(top("open the preferences", 3)).toContain("screen.userpref_show");
    expect(top("add an audio strip", 3)).toContain("sequencer.sound_strip_add");
    expect(top("grease pencil layer", 3)).toContain("gpencil.layer_add");
  });
});

describe("createBlenderCatalog of another tested Blender", () => {
  it("offers only that Blender's operators, its exporters first", () => {
    for (const version of ["4.3.2", "5.2.2"]) {
      const catalog = createBlenderCatalog({ version });
      const found = catalog.search("export wavefront obj", { limit: 5 }).map((hit) => hit.name);
      expect(found, version).toContain("wm.obj_export");
      expect(catalog.get("export_scene.obj"), version).toBeUndefined();
      expect(catalog.search("export stl", { limit: 5 }).map((hit) => hit.name)[0], version).toBe(
        "wm.stl_export",
      );
    }
    const old = createBlenderCatalog({ version: "3.4.1" });
    expect(old.get("wm.stl_export")).toBeUndefined();
  });

  it("names that Blender's EEVEE engine id in the data commands' texts", () => {
    const set = (version: string) => createBlenderCatalog({ version }).get("data.set")?.description;
    expect(set("3.4.1")).toContain("BLENDER_EEVEE, CYCLES");
    expect(set("4.3.2")).toContain("BLENDER_EEVEE_NEXT, CYCLES");
    expect(set("5.2.2")).toContain("BLENDER_EEVEE, CYCLES");
  });

  it("marks extensions and operators outside the reviewed list as refused", () => {
    const catalog = createBlenderCatalog({ version: "5.2.2" });
    const install = catalog.get("extensions.package_install_files") as BlenderCommandRecord;
    expect(install.policy).toMatch(/rule 'extensions'/);
  });
});
