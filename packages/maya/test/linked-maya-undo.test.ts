// A script owns its part of Maya's undo queue, on the real Maya side (python/dcc_maya) over the
// stand-in `mayapy`: the same transaction tests as the simulated Maya's.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

describe("a script's undo queue on the Maya side, over the stand-in", { timeout: 120_000 }, () => {
  let session: MayaSession;
  // A new Maya for each test: its undo queue starts empty.
  beforeEach(async () => {
    session = await startMayaSession();
  }, 180_000);
  afterEach(async () => {
    await session?.close();
  });
  const transforms = (): unknown => session.scene.scene.execute("ls", { type: "transform" });
  const script = async (code: string) => session.run(code);

  it("rolls back a failing script that undid earlier scripts, and keeps their redo", async () => {
    await script('dispatch("polyCube", {}); return 1');
    await script('dispatch("polySphere", {}); return 1');
    const failed = await script(
      'for (let i = 0; i < 6; i++) dispatch("undo"); throw new Error("late")',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms()).toEqual(["pCube1", "pSphere1"]);
    await script('return dispatch("undo")');
    expect(transforms()).toEqual(["pCube1"]);
    const walked = await script('dispatch("undo"); throw new Error("late")');
    expect(walked).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms()).toEqual(["pCube1"]);
    await script('return dispatch("redo")');
    expect(transforms()).toEqual(["pCube1", "pSphere1"]);
  });

  it("refuses to let a script close its own chunk, so a rollback takes back all it made", async () => {
    const escaped = await script(
      'dispatch("polySphere", {}); try { dispatch("undoInfo", { closeChunk: true }); } catch (e) { if (e.code !== "INVALID_STATE") return e.code; } dispatch("polyCube", {}); throw new Error("late")',
    );
    expect(escaped).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms()).toEqual([]);
  });

  it("makes no undo step for a script that only reads, and two undo scripts take back two scripts", async () => {
    await script('dispatch("polyCone", {}); return 1');
    await script('dispatch("polyTorus", {}); return 1');
    const read = await script('return dispatch("ls", { type: "transform" })');
    expect(read).toMatchObject({ success: true, transaction: { reason: "nothing_to_undo" } });
    const first = await script('return dispatch("undo")');
    expect(first).toMatchObject({ success: true, transaction: { reason: "nothing_to_undo" } });
    expect(transforms()).toEqual(["pCone1"]);
    await script('return dispatch("undo")');
    expect(transforms()).toEqual([]);
    await script('dispatch("redo"); return dispatch("redo")');
    expect(transforms()).toEqual(["pCone1", "pTorus1"]);
  });

  it("refuses an undo once the script has changed the scene", async () => {
    await script('dispatch("polyCone", {}); return 1');
    const result = await script(
      'dispatch("polyTorus", {}); try { dispatch("undo"); } catch (e) { return [e.code, e.message]; } return "undone"',
    );
    expect(result).toMatchObject({
      success: true,
      output: ["INVALID_STATE", expect.stringContaining("has changed the scene")],
    });
    expect(transforms()).toEqual(["pCone1", "pTorus1"]);
  });
});
