import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdapterExecutor, type DccApiExecutor } from "@dcc/executor";
import { afterEach, describe, expect, it } from "vitest";
import { createMayaAdapter, type MayaAdapter } from "./maya-adapter.ts";

let executor: DccApiExecutor | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function start(adapter: MayaAdapter = createMayaAdapter()): MayaAdapter {
  executor = createAdapterExecutor(adapter);
  return adapter;
}

const transforms = (adapter: MayaAdapter): unknown =>
  adapter.scene.execute("ls", { type: "transform" });

describe("scripts on the simulated Maya are transactions", { timeout: 60_000 }, () => {
  it("makes a successful script one undo chunk named after the call, undone by one undo", async () => {
    const adapter = start();
    adapter.scene.execute("polyCube", {});
    const result = await executor?.execute(
      'dispatch("polySphere", {}); dispatch("polySphere", {}); dispatch("move", { args: [1, 2, 3, "pSphere1"] }); return 1',
      { undoLabel: "dcc_execute: two spheres" },
    );
    expect(result).toMatchObject({
      success: true,
      transaction: { rolledBack: false, undoStep: "dcc_execute: two spheres" },
    });
    expect(transforms(adapter)).toEqual(["pCube1", "pSphere1", "pSphere2"]);
    // The person's (or the agent's) one undo takes back the whole script, and only it.
    const undone = await executor?.execute('return dispatch("undo")');
    expect(undone).toMatchObject({ success: true, output: "dcc_execute: two spheres" });
    expect(transforms(adapter)).toEqual(["pCube1"]);
  });

  it("rolls back a script that throws after changing the scene", async () => {
    const adapter = start();
    adapter.scene.execute("polyCube", {});
    const before = JSON.stringify(adapter.scene.graph.state);
    const result = await executor?.execute(
      'dispatch("polySphere", {}); dispatch("move", { args: [5, 0, 0, "pCube1"] }); throw new Error("boom")',
    );
    expect(result).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(JSON.stringify(adapter.scene.graph.state)).toBe(before);
  });

  it("rolls back a script cancelled mid-loop and one past its timeout", async () => {
    const adapter = start();
    const before = JSON.stringify(adapter.scene.graph.state);
    const controller = new AbortController();
    const cancelled = executor?.execute(
      // Paced, so that the cancel, not maxDispatchCalls, ends it on any machine.
      'for (let i = 0; ; i++) { dispatch("polySphere", {}); if (i >= 2) progress(i); const t = Date.now() + 2; while (Date.now() < t) {} }',
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(await cancelled).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
      rollback: { rolledBack: true },
    });
    expect(JSON.stringify(adapter.scene.graph.state)).toBe(before);
    const timedOut = await executor?.execute(
      'for (;;) { dispatch("polySphere", {}); const t = Date.now() + 2; while (Date.now() < t) {} }',
      {
        timeoutSecs: 2,
      },
    );
    expect(timedOut).toMatchObject({ success: false, errorCode: "TIMEOUT" });
    // Only a machine too loaded to start the script within the timeout reaches no command.
    if ((timedOut?.stats.dispatchCalls ?? 0) > 0) {
      expect(timedOut).toMatchObject({ rollback: { rolledBack: true } });
    }
    expect(JSON.stringify(adapter.scene.graph.state)).toBe(before);
  });

  it("keeps a failed script's changes when asked, as one undo step", async () => {
    const adapter = start();
    const result = await executor?.execute('dispatch("polySphere", {}); throw new Error("boom")', {
      keepPartialChanges: true,
    });
    expect(result).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "kept", undoStep: "maya script" },
    });
    expect(transforms(adapter)).toEqual(["pSphere1"]);
  });

  it("lists saved files, which stay, and says when a file new cut the undo history", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "maya-txn-"));
    const adapter = start(createMayaAdapter({ dataDir }));
    const saved = await executor?.execute(
      'dispatch("polySphere", {}); dispatch("file", { rename: "a.json", save: true }); throw new Error("boom")',
    );
    expect(saved).toMatchObject({
      success: false,
      rollback: { rolledBack: true, filesWritten: ["a.json"] },
    });
    expect(transforms(adapter)).toEqual([]);
    const cut = await executor?.execute(
      'dispatch("polySphere", {}); dispatch("file", { new: true, force: true }); dispatch("polyCube", {}); throw new Error("boom")',
    );
    expect(cut).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "history_cut" },
    });
  });

  it("says a script that changed nothing had nothing to undo", async () => {
    start();
    const result = await executor?.execute('dispatch("ls", {}); throw new Error("boom")');
    expect(result).toMatchObject({
      success: false,
      rollback: { rolledBack: false, reason: "nothing_to_undo" },
    });
  });
});

describe("a script owns its part of the simulated Maya's undo queue", { timeout: 60_000 }, () => {
  const script = async (code: string) => {
    const result = await executor?.execute(code);
    if (result === undefined) throw new Error("no executor");
    return result;
  };

  it("rolls back a failing script that undid earlier scripts, and keeps their redo", async () => {
    const adapter = start();
    await script('dispatch("polyCube", {}); return 1');
    await script('dispatch("polySphere", {}); return 1');
    const failed = await script(
      'for (let i = 0; i < 6; i++) dispatch("undo"); throw new Error("late")',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms(adapter)).toEqual(["pCube1", "pSphere1"]);
    // An undo script, then a failing one that only walked: the sphere stays redoable.
    await script('return dispatch("undo")');
    expect(transforms(adapter)).toEqual(["pCube1"]);
    const walked = await script('dispatch("undo"); throw new Error("late")');
    expect(walked).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms(adapter)).toEqual(["pCube1"]);
    await script('return dispatch("redo")');
    expect(transforms(adapter)).toEqual(["pCube1", "pSphere1"]);
  });

  it("refuses to let a script close its own chunk, so a rollback takes back all it made", async () => {
    const adapter = start();
    const escaped = await script(
      'dispatch("polySphere", {}); try { dispatch("undoInfo", { closeChunk: true }); } catch (e) { if (e.code !== "INVALID_STATE") return e.code; } dispatch("polyCube", {}); throw new Error("late")',
    );
    expect(escaped).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(transforms(adapter)).toEqual([]);
    // A chunk of its own inside the script's is fine, and still one undo step.
    const nested = await script(
      'dispatch("undoInfo", { openChunk: true, chunkName: "inner" }); dispatch("polySphere", {}); dispatch("undoInfo", { closeChunk: true }); dispatch("polyCube", {}); return 1',
    );
    expect(nested).toMatchObject({ success: true, transaction: { undoStep: "maya script" } });
    await script('return dispatch("undo")');
    expect(transforms(adapter)).toEqual([]);
  });

  it("makes no undo step for a script that only reads, so the next undo takes back the last change", async () => {
    const adapter = start();
    await script('dispatch("polyCone", {}); return 1');
    const read = await script('return dispatch("ls", { type: "transform" })');
    expect(read).toMatchObject({ success: true, transaction: { reason: "nothing_to_undo" } });
    await script('return dispatch("undo")');
    expect(transforms(adapter)).toEqual([]);
  });

  it("takes back the last two scripts with two undo scripts, and brings them back with redo", async () => {
    const adapter = start();
    await script('dispatch("polyCone", {}); return 1');
    await script('dispatch("polyTorus", {}); return 1');
    const first = await script('return dispatch("undo")');
    expect(first).toMatchObject({ success: true, transaction: { reason: "nothing_to_undo" } });
    expect(transforms(adapter)).toEqual(["pCone1"]);
    await script('return dispatch("undo")');
    expect(transforms(adapter)).toEqual([]);
    await script('dispatch("redo"); return dispatch("redo")');
    expect(transforms(adapter)).toEqual(["pCone1", "pTorus1"]);
  });

  it("refuses an undo once the script has changed the scene", async () => {
    const adapter = start();
    await script('dispatch("polyCone", {}); return 1');
    const result = await script(
      'dispatch("polyTorus", {}); try { dispatch("undo"); } catch (e) { return [e.code, e.message]; } return "undone"',
    );
    expect(result).toMatchObject({
      success: true,
      output: ["INVALID_STATE", expect.stringContaining("has changed the scene")],
    });
    expect(transforms(adapter)).toEqual(["pCone1", "pTorus1"]);
  });
});

describe("scripts side by side on the simulated Maya", { timeout: 90_000 }, () => {
  it("runs a compute-only script beside one that holds the scene, and a second change only after the first's rollback", async () => {
    const adapter = start();
    const on = executor as DccApiExecutor;
    await Promise.all([on.execute("return 1"), on.execute("return 2")]); // two started sandboxes
    const controller = new AbortController();
    let made = 0;
    const holder = on.execute(
      'for (;;) { dispatch("polySphere", {}); progress(1); const until = Date.now() + 5; while (Date.now() < until) {} }',
      { signal: controller.signal, onProgress: () => (made += 1) },
    );
    const giveUp = Date.now() + 30_000;
    while (made < 3 && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 10));
    // Never calls Maya: runs at once, beside the holder.
    expect(await on.execute("return 6 * 7")).toMatchObject({ success: true, output: 42 });
    // Changes Maya: waits until the holder has been cancelled and rolled back.
    const second = on.execute(
      'dispatch("polyCube", {}); return dispatch("ls", { type: "transform" })',
    );
    controller.abort();
    expect(await holder).toMatchObject({ errorCode: "CANCELLED", rollback: { rolledBack: true } });
    expect(await second).toMatchObject({ success: true, output: ["pCube1"] });
    expect(transforms(adapter)).toEqual(["pCube1"]);
  });
});
