// The artist's own undo history in an attached, interactive Blender (under Xvfb): a failing
// script's rollback never takes back the artist's or earlier scripts' work, and reads, captures
// and undo scripts add no steps to the artist's Ctrl-Z.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdapterExecutor, type DccApiExecutor } from "@dcc/executor";
import { assertBlender, describeWithBlender, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderAdapter, createBlenderAdapter } from "../src/index.ts";
import { outputOf } from "./support/blender-session.ts";
import { startInteractiveBlender, stopGroup } from "./support/interactive-blender.ts";

const objects =
  'return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();';

describeWithBlender("undo in an attached Blender (under Xvfb)", { timeout: 300_000 }, () => {
  let folder: string;
  let blender: ChildProcess | undefined;
  let adapter: BlenderAdapter | undefined;
  let executor: DccApiExecutor | undefined;
  const run = (code: string) => (executor as DccApiExecutor).execute(code, { timeoutSecs: 120 });
  const names = async (): Promise<string[]> => outputOf<string[]>(await run(objects));
  beforeAll(async () => {
    assertBlender();
    folder = mkdtempSync(join(tmpdir(), "dcc-blender-attach-undo-"));
    mkdirSync(join(folder, "link"), { mode: 0o700 });
    const connectionFile = join(folder, "link", "connection.json");
    blender = startInteractiveBlender(
      join(folder, "link"),
      join(folder, "data"),
      join(folder, "tmp"),
    );
    await waitFor("the add-on's connection.json", () => existsSync(connectionFile), 120_000);
    adapter = createBlenderAdapter({ attach: { connectionFile } });
    await adapter.start?.({ signal: AbortSignal.timeout(120_000), reportHost: () => {} });
    executor = createAdapterExecutor(adapter);
  }, 300_000);
  afterAll(async () => {
    await executor?.close();
    await adapter?.close?.();
    stopGroup(blender);
    rmSync(folder, { recursive: true, force: true });
  });

  it("keeps the artist's history: no steps for reads and captures, a rollback that walks back", async () => {
    await run('dispatch("mesh.primitive_cone_add", { location: [3, 0, 0] }); return 1;');
    await run('dispatch("mesh.primitive_torus_add", { location: [6, 0, 0] }); return 1;');
    const both = await names();
    expect(both).toEqual(["Camera", "Cone", "Cube", "Light", "Torus"]);
    const capture = await run(
      'return dispatch("viewport.screenshot", { width: 32, height: 32 }).width;',
    );
    expect(capture).toMatchObject({ success: true, output: 32 });
    expect(capture.success && capture.transaction?.undoStep).toBeUndefined();

    // Six Ctrl-Z's then a failure: the rollback brings every step back.
    const failed = await run(
      'for (let i = 0; i < 6; i++) { try { dispatch("ed.undo"); } catch (e) {} } throw new Error("late");',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect(await names()).toEqual(both);

    // One undo script per script: the capture and the reads left no step in between.
    await run('return dispatch("ed.undo");');
    expect(await names()).toEqual(["Camera", "Cone", "Cube", "Light"]);
    await run('return dispatch("ed.undo");');
    expect(await names()).toEqual(["Camera", "Cube", "Light"]);
    await run('dispatch("ed.redo"); return dispatch("ed.redo");');
    expect(await names()).toEqual(both);
  });
});
