// A script owns exactly its own part of Blender's undo history, on a real headless Blender: a
// rollback returns to where the script began whatever it did to the history, reads and captures
// are no undo steps, undo scripts walk back, and the change report is the script's net effect.
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type BlenderSession, outputOf, startBlenderSession } from "./support/blender-session.ts";

const objects =
  'return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();';

describeWithBlender("a script's undo history on a real Blender", { timeout: 300_000 }, () => {
  let session: BlenderSession;
  const names = async (): Promise<string[]> => outputOf<string[]>(await session.run(objects));
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
  }, 300_000);
  afterAll(async () => {
    await session?.close();
  });
  beforeEach(async () => {
    // A fresh factory scene for each test (its undo history starts again).
    await session.adapter.call("blender.reset");
  });

  it("rolls back a failing script that undid earlier scripts, and keeps their redo history", async () => {
    await session.run('dispatch("mesh.primitive_cube_add", { location: [3, 0, 0] }); return 1;');
    await session.run('dispatch("mesh.primitive_cone_add", { location: [6, 0, 0] }); return 1;');
    const both = await names();
    expect(both).toEqual(["Camera", "Cone", "Cube", "Cube.001", "Light"]);
    const failed = await session.run(
      'for (let i = 0; i < 6; i++) { try { dispatch("ed.undo"); } catch (e) {} } throw new Error("late");',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(await names()).toEqual(both);

    // The cone's script undone, then a failing script: its rollback leaves the cone redoable.
    await session.run('return dispatch("ed.undo");');
    expect(await names()).toEqual(["Camera", "Cube", "Cube.001", "Light"]);
    const doomed = await session.run(
      'dispatch("mesh.primitive_uv_sphere_add", { location: [0, 6, 0] }); throw new Error("late");',
    );
    expect(doomed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(await names()).toEqual(["Camera", "Cube", "Cube.001", "Light"]);
    expect((await session.run('return dispatch("ed.redo");')).success).toBe(true);
    expect(await names()).toEqual(both);
  });

  it("rolls back what a failing script made even when it pushed its own undo step", async () => {
    const before = await names();
    const escaped = await session.run(
      'dispatch("mesh.primitive_cube_add", { location: [0, 0, 4] }); dispatch("ed.undo_push", { message: "x" }); throw new Error("late");',
    );
    expect(escaped).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(await names()).toEqual(before);
    // More pushes than Blender keeps would drop the step the script began at: refused first.
    const flood = await session.run(`
      dispatch("mesh.primitive_cube_add", { location: [0, 0, 4] });
      let pushed = 0;
      try { for (; pushed < 40; pushed++) dispatch("ed.undo_push", { message: "x" + pushed }); }
      catch (e) { if (e.code !== "INVALID_STATE") throw e; }
      throw new Error("late after " + pushed);`);
    expect(flood).toMatchObject({
      success: false,
      error: expect.stringContaining("late after 30"),
      rollback: { rolledBack: true },
    });
    expect(await names()).toEqual(before);
  });

  it("makes no undo step for a script that only reads or captures", async () => {
    const cone = await session.run('dispatch("mesh.primitive_cone_add"); return 1;');
    expect(cone).toMatchObject({ success: true, transaction: { undoStep: expect.any(String) } });
    const capture = await session.run(
      'return dispatch("viewport.screenshot", { width: 32, height: 32 }).width;',
    );
    expect(capture).toMatchObject({ success: true, output: 32 });
    expect(capture.success && capture.transaction?.undoStep).toBeUndefined();
    const read = await session.run(objects);
    expect(read.success && read.transaction?.undoStep).toBeUndefined();
    // So the next undo takes back the cone, not a capture.
    await session.run('return dispatch("ed.undo");');
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
  });

  it("takes back the last two scripts with two undo scripts, and brings them back with redo", async () => {
    await session.run('dispatch("mesh.primitive_cone_add"); return 1;');
    await session.run('dispatch("mesh.primitive_torus_add"); return 1;');
    expect(await names()).toEqual(["Camera", "Cone", "Cube", "Light", "Torus"]);
    const first = await session.run('return dispatch("ed.undo");');
    expect(first.success && first.transaction?.undoStep).toBeUndefined();
    expect(await names()).toEqual(["Camera", "Cone", "Cube", "Light"]);
    await session.run('return dispatch("ed.undo");');
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
    await session.run('dispatch("ed.redo"); return dispatch("ed.redo");');
    expect(await names()).toEqual(["Camera", "Cone", "Cube", "Light", "Torus"]);
  });

  it("refuses an undo past the start of a script's own changes, and undoes its own", async () => {
    await session.run('dispatch("mesh.primitive_cone_add"); return 1;');
    const result = await session.run(`
      dispatch("mesh.primitive_torus_add");
      dispatch("ed.undo");
      const after = dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();
      try { dispatch("ed.undo"); } catch (e) { return { after, code: e.code, message: e.message }; }
      return { after };`);
    expect(result).toMatchObject({
      success: true,
      output: {
        after: ["Camera", "Cone", "Cube", "Light"],
        code: "INVALID_STATE",
        message: expect.stringContaining("past the start of this script's own changes"),
      },
    });
    expect(await names()).toEqual(["Camera", "Cone", "Cube", "Light"]);
  });

  it("reports the net change under final names, removals through data.call too, each once", async () => {
    const result = await session.run(`
      dispatch("mesh.primitive_cube_add", { location: [0, 3, 0] });
      dispatch("data.set", { path: 'objects["Cube.001"].name', value: "Box" });
      dispatch("data.call", { path: "objects.remove", args: [{ $path: 'objects["Camera"]' }] });
      dispatch("mesh.primitive_cone_add");
      dispatch("object.delete");
      return 1;`);
    expect(result.success).toBe(true);
    expect(result.stats.changes).toEqual({
      created: ['objects["Box"]', 'meshes["Cone"]', 'meshes["Cube.001"]'],
      removed: ['objects["Camera"]'],
    });
    const undone = await session.run('return dispatch("ed.undo");');
    expect(undone.stats.changes).toEqual({
      created: ['objects["Camera"]'],
      removed: ['objects["Box"]', 'meshes["Cone"]', 'meshes["Cube.001"]'],
    });
  });
});
