import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdapterExecutor } from "@dcc/executor";
import { assertBlender, describeWithBlender, processAlive } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type BlenderSession,
  busy,
  outputOf,
  startBlenderSession,
  watchMainThread,
} from "./support/blender-session.ts";

describeWithBlender("the Blender adapter, headless", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("runs the seed's agent pattern and reports what each operator created", async () => {
    const result = await session.run(`
      const reports = [];
      for (let i = 0; i < 5; i++) reports.push(dispatch("mesh.primitive_uv_sphere_add", { location: [i, 0, 0] }));
      return { created: reports.map((r) => r.created.filter((c) => c.type === "Object").map((c) => c.name)),
               result: reports[0].result, active: reports[4].active,
               location: dispatch("data.get", { path: 'objects["Sphere.004"].location' }) };`);
    expect(result).toMatchObject({
      success: true,
      output: {
        created: [["Sphere"], ["Sphere.001"], ["Sphere.002"], ["Sphere.003"], ["Sphere.004"]],
        result: ["FINISHED"],
        active: "Sphere.004",
        location: [4, 0, 0],
      },
    });
    // The operators' change reports, gathered for the script's stats (and so the audit log).
    const created = result.stats.changes?.created ?? [];
    expect(created).toEqual(expect.arrayContaining(['objects["Sphere"]', 'objects["Sphere.004"]']));
    expect(result.stats.changes?.removed).toEqual([]);
  });

  it("runs a script's reads on the sandbox's own connection, and its writes on the main thread", async () => {
    const { watched, onMain } = watchMainThread(session.adapter);
    const executor = createAdapterExecutor(watched);
    try {
      const result = await executor.execute(
        `dispatch("data.set", { path: 'objects["Cube"].location', value: [7, 8, 9] });
         return { location: dispatch("data.get", { path: 'objects["Cube"].location' }),
                  lights: dispatch("data.list", { collection: "lights" }).map((o) => o.name),
                  described: dispatch("data.describe", { type: "Object" }).name,
                  missing: (() => { try { dispatch("data.get", { path: 'objects["Nope"]' }); }
                                    catch (e) { return e.code; } })() };`,
        { timeoutSecs: 120 },
      );
      expect(result).toMatchObject({
        success: true,
        output: {
          location: [7, 8, 9],
          lights: ["Light"],
          described: "Object",
          missing: "NOT_FOUND",
        },
        stats: { dispatchCalls: 5 },
      });
      expect(onMain).toEqual(["data.set"]);
    } finally {
      await executor.close();
    }
    await session.run(
      `dispatch("data.set", { path: 'objects["Cube"].location', value: [0, 0, 0] });`,
    );
  });

  it("reads, writes, lists and calls through the data API", async () => {
    const result = await session.run(`
      const moved = dispatch("data.set", { path: 'objects["Cube"].location', value: [1, 2, 3] });
      // Blender cuts names at 63 bytes and clamps numbers: data.set says what it stored.
      const renamed = dispatch("data.set", { path: 'objects["Light"].name', value: "L".repeat(70) });
      const material = dispatch("data.call", { path: "materials.new", args: ["Red"] });
      const clamped = dispatch("data.set", { path: 'materials["Red"].roughness', value: 5 });
      const modifier = dispatch("data.call", { path: 'objects["Cube"].modifiers.new', kwargs: { name: "Subdivision", type: "SUBSURF" } });
      return {
        moved, renamed, clamped,
        location: dispatch("data.get", { path: 'objects["Cube"].location' }),
        material, modifier: modifier.type,
        cameras: dispatch("data.list", { collection: "objects", options: { type: "CAMERA" } }).map((o) => o.name),
        described: dispatch("data.describe", { type: "Object" }).properties.some((p) => p.name === "location"),
      };`);
    // Names are cut at 63 bytes before Blender 5, at 255 from 5.0.
    const major = Number.parseInt(session.adapter.operators?.blender ?? "3", 10);
    expect(result).toMatchObject({
      success: true,
      output: {
        moved: [1, 2, 3],
        renamed: "L".repeat(major >= 5 ? 70 : 63),
        clamped: 1,
        location: [1, 2, 3],
        material: { type: "Material", name: "Red" },
        modifier: "SubsurfModifier",
        cameras: ["Camera"],
        described: true,
      },
    });
  });

  it("gives scripts catchable errors with Blender's codes", async () => {
    const result = await session.run(`
      const codes = {};
      const attempt = (name, command, args) => { try { dispatch(command, args); codes[name] = "ran"; } catch (e) { codes[name] = e.code; } };
      attempt("unknownObject", "data.get", { path: 'objects["Nope"].location' });
      attempt("badPath", "data.get", { path: 'objects[' });
      attempt("badKeyword", "mesh.primitive_cube_add", { sizee: 2 });
      attempt("editModeOnly", "mesh.subdivide", {});
      attempt("notAnObject", "mesh.primitive_cube_add", [1, 2]);
      return codes;`);
    expect(result).toMatchObject({
      success: true,
      output: {
        unknownObject: "NOT_FOUND",
        badPath: "INVALID_PATH",
        badKeyword: "INVALID_ARGS",
        editModeOnly: "POLL_FAILED",
        notAnObject: "INVALID_ARGS",
      },
    });
  });

  it("names the mode an operator needs when its poll fails", async () => {
    const result = await session.run(
      `try { dispatch("mesh.subdivide", {}); } catch (e) { return e.message; }`,
    );
    expect(result).toMatchObject({ success: true, output: expect.stringContaining("Edit Mode") });
  });

  it("reads a mesh edited in Edit Mode as it is now, not as it was when the mode was entered", async () => {
    const result = await session.run(`
      dispatch("object.select_all", { action: "DESELECT" });
      dispatch("mesh.primitive_cube_add", { location: [0, 0, 5] });
      const name = dispatch("data.get", { path: "context.active_object.name" });
      dispatch("object.mode_set", { mode: "EDIT" });
      dispatch("mesh.select_all", { action: "SELECT" });
      dispatch("mesh.subdivide", {});
      const inEdit = dispatch("data.list", { collection: \`objects["\${name}"].data.vertices\` }).length;
      const viaMeshes = dispatch("data.list", { collection: \`meshes["\${name}"].vertices\` }).length;
      dispatch("object.mode_set", { mode: "OBJECT" });
      const after = dispatch("data.list", { collection: \`objects["\${name}"].data.vertices\` }).length;
      dispatch("object.delete", {});
      return { inEdit, viaMeshes, after };`);
    expect(result).toMatchObject({
      success: true,
      output: { inEdit: 26, viaMeshes: 26, after: 26 },
    });
  });

  it("refuses commands that run code or reach outside, naming the rule", async () => {
    // A fresh folder outside the data folder: no file another run left can decide the check.
    const outsideDir = mkdtempSync(join(tmpdir(), "dcc-blender-outside-"));
    const outside = join(outsideDir, "outside.blend");
    writeFileSync(join(session.dataDir, "evil.py"), "open('/tmp/pwned', 'w').write('x')\n");
    const result = await session.run(`
      const refused = {};
      const rules = {};
      const attempt = (command, args) => { try { dispatch(command, args); refused[command] = "ran"; } catch (e) { refused[command] = e.code + ": " + e.message; rules[command] = e.data && e.data.rule; } };
      attempt("script.python_file_run", { filepath: "evil.py" });
      attempt("wm.url_open", { url: "https://example.com" });
      attempt("preferences.addon_install", { filepath: "evil.py" });
      attempt("wm.quit_blender", {});
      attempt("wm.save_as_mainfile", { filepath: ${JSON.stringify(outside)} });
      attempt("wm.save_as_mainfile", { filepath: "../escape.blend" });
      return { refused, rules };`);
    expect(result.success).toBe(true);
    const { refused, rules } = outputOf<{
      refused: Record<string, string>;
      rules: Record<string, string>;
    }>(result);
    // The rule travels as data too, so a script can tell which one refused it.
    expect(rules["wm.quit_blender"]).toBe("quit");
    expect(rules["wm.save_as_mainfile"]).toBe("data-folder");
    for (const [command, outcome] of Object.entries(refused)) {
      expect(outcome, command).toMatch(/^POLICY: /);
    }
    expect(refused["wm.save_as_mainfile"]).toMatch(/outside|data folder/);
    try {
      expect(existsSync(outside)).toBe(false);
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("saves inside the data folder, relative paths from there", async () => {
    const result = await session.run(
      `return dispatch("wm.save_as_mainfile", { filepath: "saved.blend" }).result;`,
    );
    expect(result).toMatchObject({ success: true, output: ["FINISHED"] });
    expect(existsSync(join(session.dataDir, "saved.blend"))).toBe(true);
  });

  it("names the operator or path, and what a vector takes, for a vector of the wrong shape", async () => {
    const result = await session.run(`
      const attempt = (command, args) => { try { dispatch(command, args); return "ran"; } catch (e) { return e.code + ": " + e.message; } };
      return [
        attempt("mesh.primitive_uv_sphere_add", { location: [1, 2] }),
        attempt("mesh.primitive_cube_add", { location: "1,2,3" }),
        attempt("mesh.primitive_cube_add", { location: [NaN, 0, 0] }),
        attempt("data.set", { path: 'objects["Cube"].location', value: "up" }),
        attempt("data.set", { path: 'objects["Cube"].location', value: [0, Infinity, 0] }),
      ];`);
    expect(result).toMatchObject({
      success: true,
      output: [
        "INVALID_ARGS: mesh.primitive_uv_sphere_add argument location takes 3 values, not 2",
        "INVALID_ARGS: mesh.primitive_cube_add argument location takes 3 numbers as a list, not the string '1,2,3'",
        "INVALID_ARGS: mesh.primitive_cube_add argument location item 0 is null (JSON has no NaN or Infinity: give a finite number)",
        `INVALID_VALUE: objects["Cube"].location takes 3 numbers as a list, not the string 'up'`,
        `INVALID_VALUE: objects["Cube"].location item 1 is null (JSON has no NaN or Infinity: give a finite number)`,
      ],
    });
  });

  it("refuses data-command arguments it does not take, instead of ignoring them", async () => {
    const result = await session.run(`
      const attempt = (command, args) => { try { dispatch(command, args); return "ran"; } catch (e) { return e.code + ": " + e.message; } };
      return [
        attempt("data.list", { collection: "objects", fields: ["location"] }),
        attempt("data.get", { path: "context.mode", options: { bogus: 1 } }),
        attempt("data.set", { path: 'objects["Cube"].location', value: [0, 0, 1], undo: true }),
        dispatch("data.list", { collection: "objects", options: { fields: ["location"] } }).length,
      ];`);
    expect(result.success).toBe(true);
    const [misplaced, badOption, extra, listed] =
      outputOf<[string, string, string, number]>(result);
    expect(misplaced).toBe(
      "INVALID_ARGS: data.list takes collection, options; unknown: fields (fields goes inside options: { fields })",
    );
    expect(badOption).toBe("INVALID_ARGS: the options of data.get take depth; unknown: bogus");
    expect(extra).toBe("INVALID_ARGS: data.set takes path, value; unknown: undo");
    expect(listed).toBeGreaterThan(0);
  });

  it("creates the missing folder of a file it saves or exports", async () => {
    const result = await session.run(`return [
      dispatch("wm.save_as_mainfile", { filepath: "scenes/shot01/layout.blend", copy: true }).files,
      dispatch("wm.obj_export", { filepath: "exports/shot01/scene.obj" }).files,
    ];`);
    expect(result).toMatchObject({
      success: true,
      output: [
        ["scenes/shot01/layout.blend"],
        ["exports/shot01/scene.mtl", "exports/shot01/scene.obj"],
      ],
    });
    expect(existsSync(join(session.dataDir, "scenes", "shot01", "layout.blend"))).toBe(true);
    expect(existsSync(join(session.dataDir, "exports", "shot01", "scene.obj"))).toBe(true);
  });

  it("reports the modifiers, constraints and slots an operator adds, and the files an export writes", async () => {
    const result = await session.run(`
      dispatch("object.select_all", { action: "DESELECT" });
      dispatch("mesh.primitive_cube_add", { location: [0, 0, -5] });
      const made = (op, args) => dispatch(op, args).created;
      const out = {
        modifier: made("object.modifier_add", { type: "SUBSURF" }),
        constraint: made("object.constraint_add", { type: "TRACK_TO" }),
        slot: made("object.material_slot_add", {}),
        glb: dispatch("export_scene.gltf", { filepath: "exports/added/cube", use_selection: true }).files,
      };
      dispatch("object.delete", {});
      return out;`);
    expect(result).toMatchObject({
      success: true,
      output: {
        modifier: [
          {
            type: "SubsurfModifier",
            name: "Subdivision",
            path: expect.stringMatching(/\.modifiers\["Subdivision"\]$/),
          },
        ],
        constraint: [
          {
            type: "TrackToConstraint",
            name: "Track To",
            path: expect.stringMatching(/\.constraints\["Track To"\]$/),
          },
        ],
        slot: [{ type: "MaterialSlot", path: expect.stringMatching(/\.material_slots\[0\]$/) }],
        glb: ["exports/added/cube.glb"],
      },
    });
    expect(existsSync(join(session.dataDir, "exports", "added", "cube.glb"))).toBe(true);
  });

  it("refuses to save over a folder, which Blender would rename aside", async () => {
    mkdirSync(join(session.dataDir, "shots"), { recursive: true });
    const result = await session.run(`
      const outcomes = [];
      for (const filepath of [".", "shots"]) {
        try { dispatch("wm.save_as_mainfile", { filepath }); outcomes.push("saved"); }
        catch (e) { outcomes.push(e.code + ": " + e.message); }
      }
      return outcomes;`);
    expect(result.success).toBe(true);
    const [root, shots] = outputOf<string[]>(result);
    expect(root).toMatch(/^POLICY: .*names the data folder, not a file/);
    expect(shots).toMatch(/^POLICY: .*names the folder 'shots', not a file/);
    expect(statSync(session.dataDir).isDirectory()).toBe(true);
    expect(statSync(join(session.dataDir, "shots")).isDirectory()).toBe(true);
  });

  it("refuses an export to a folder alone, before the exporter runs", async () => {
    const result = await session.run(`
      dispatch("data.call", { path: 'scenes["Scene"].frame_set', args: [3] });
      let outcome = "exported";
      try { dispatch("export_scene.gltf", { filepath: "exports/" }); }
      catch (e) { outcome = e.code + ": " + e.message; }
      return { outcome, frame: dispatch("data.get", { path: 'scenes["Scene"].frame_current' }) };`);
    expect(result).toMatchObject({
      success: true,
      output: {
        outcome: expect.stringMatching(
          /^INVALID_ARGS: export_scene.gltf argument filepath 'exports\/' names a folder/,
        ),
        frame: 3,
      },
    });
  });

  // A render that takes a moment: the workbench engine at 32×32.
  const smallFastRender = `
      dispatch("data.set", { path: 'scenes["Scene"].render.engine', value: "BLENDER_WORKBENCH" });
      dispatch("data.set", { path: 'scenes["Scene"].render.resolution_x', value: 32 });
      dispatch("data.set", { path: 'scenes["Scene"].render.resolution_y', value: 32 });`;

  it("renders an animation frame by frame into the data folder and lists the files", async () => {
    const result = await session.run(`
      ${smallFastRender}
      dispatch("data.set", { path: 'scenes["Scene"].frame_start', value: 1 });
      dispatch("data.set", { path: 'scenes["Scene"].frame_end', value: 3 });
      return dispatch("render.render", { animation: true });`);
    expect(result).toMatchObject({ success: true, output: { frames: [1, 2, 3] } });
    const files = outputOf<{ files: string[] }>(result).files;
    expect(files).toHaveLength(3);
    for (const file of files) expect(existsSync(join(session.dataDir, file)), file).toBe(true);
  });

  it("names a still written to the default output folder by its frame", async () => {
    const result = await session.run(`
      ${smallFastRender}
      dispatch("data.set", { path: 'scenes["Scene"].frame_current', value: 7 });
      const report = dispatch("render.render", { write_still: true });
      return { report, output: dispatch("data.get", { path: 'scenes["Scene"].render.filepath' }) };`);
    expect(result.success).toBe(true);
    const { report, output } = outputOf<{ report: { files: string[] }; output: string }>(result);
    expect(report.files).toEqual([join("renders", "0007.png")]);
    expect(existsSync(join(session.dataDir, "renders", "0007.png"))).toBe(true);
    // The scene's own setting is left as it was.
    expect(output.endsWith("renders/")).toBe(true);
  });

  it("stops a long render between frames when the script is cancelled, and stays up", async () => {
    const pid = session.adapter.pid;
    const read = `try { return dispatch("data.get", { path: 'scenes["Scene"].frame_end' }); } catch (e) { return { code: e.code }; }`;
    // Earlier tests may have changed it: the rollback restores what it was before this script.
    const start = outputOf<number>(await session.run(read));
    expect(start).not.toBe(2000);
    const controller = new AbortController();
    const running = session.run(
      `dispatch("data.set", { path: 'scenes["Scene"].frame_end', value: 2000 });
       return dispatch("render.render", { animation: true });`,
      { signal: controller.signal },
    );
    const renders = join(session.dataDir, "renders");
    const before = existsSync(renders) ? readdirSync(renders).length : 0;
    const deadline = Date.now() + 120_000;
    while (
      (existsSync(renders) ? readdirSync(renders).length : 0) < before + 2 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort("enough");
    expect(await running).toMatchObject({ success: false, errorCode: "CANCELLED" });
    const written = readdirSync(renders).length - before;
    expect(written).toBeGreaterThanOrEqual(2);
    expect(written).toBeLessThan(2000);
    expect(session.adapter.pid).toBe(pid);
    expect(processAlive(pid as number)).toBe(true);
    // The render stops at its next frame; until then the host answers HOST_BUSY.
    // Then the cancelled script is rolled back: frame_end is what it was before (a read
    // on the sandbox's own connection may come before the rollback, so wait for it, bounded).
    let after = await session.run(read);
    for (
      let tries = 0;
      tries < 600 && (busy(after) || (after.success && after.output === 2000));
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await session.run(read);
    }
    expect(after).toMatchObject({ success: true, output: start });
  });
});
