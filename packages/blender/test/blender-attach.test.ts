import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DccHostStatus } from "@dcc/executor";
import { createAdapterExecutor } from "@dcc/executor";
import { linkPythonPath } from "@dcc/link";
import { assertBlender, describeWithBlender, processAlive, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderAdapter, createBlenderAdapter } from "../src/index.ts";
import { watchMainThread } from "./support/blender-session.ts";

const scriptsDir = fileURLToPath(new URL("../python", import.meta.url));

/**
 * An interactive Blender (its window manager under Xvfb) with the add-on enabled, as a user runs
 * it. Its temporary files (Blender's and xvfb-run's, which a SIGTERM to the group leaves behind)
 * go to `tempDir`, inside the test's folder.
 */
function startInteractiveBlender(linkDir: string, dataDir: string, tempDir: string): ChildProcess {
  mkdirSync(tempDir, { recursive: true, mode: 0o700 });
  return spawn(
    "xvfb-run",
    [
      "-a",
      process.env["BLENDER_BIN"] ?? "blender",
      "--factory-startup",
      "--disable-autoexec",
      "-noaudio",
      "--addons",
      "dcc_blender_link",
    ],
    {
      env: {
        ...process.env,
        BLENDER_USER_SCRIPTS: scriptsDir,
        DCC_LINK_PYTHON_PATH: linkPythonPath(),
        DCC_BLENDER_LINK_DIR: linkDir,
        DCC_BLENDER_DATA_DIR: dataDir,
        TMPDIR: tempDir,
      },
      stdio: "ignore",
      detached: true,
    },
  );
}

function stopGroup(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && processAlive(child.pid)) process.kill(-child.pid, "SIGTERM");
}

describeWithBlender("attaching to an interactive Blender running the add-on (under Xvfb)", () => {
  let folder: string;
  let blender: ChildProcess | undefined;
  let adapter: BlenderAdapter | undefined;
  const statuses: DccHostStatus[] = [];
  beforeAll(() => {
    assertBlender();
    folder = mkdtempSync(join(tmpdir(), "dcc-blender-attach-"));
    mkdirSync(join(folder, "link"), { mode: 0o700 });
  });
  afterAll(async () => {
    await adapter?.close?.();
    stopGroup(blender);
    rmSync(folder, { recursive: true, force: true });
  });

  it("drives it through connection.json, reports it gone when it quits, and reattaches to the next one", async () => {
    const connectionFile = join(folder, "link", "connection.json");
    const dataDir = join(folder, "data");
    blender = startInteractiveBlender(join(folder, "link"), dataDir, join(folder, "tmp"));
    await waitFor("the add-on's connection.json", () => existsSync(connectionFile), 120_000);
    adapter = createBlenderAdapter({ attach: { connectionFile } });
    await adapter.start?.({
      signal: AbortSignal.timeout(120_000),
      reportHost: (status) => statuses.push(status),
    });
    expect(adapter.dataDir).toBe(dataDir);
    // Notes the commands that reach the main thread: reads go on the sandbox's own connection.
    const { watched, onMain } = watchMainThread(adapter);
    const executor = createAdapterExecutor(watched);
    try {
      const made = await executor.execute(
        'dispatch("mesh.primitive_uv_sphere_add", { location: [1, 0, 0] }); return dispatch("data.list", { collection: "objects" }).map((o) => o.name);',
        { timeoutSecs: 120 },
      );
      expect(made).toMatchObject({ success: true, output: ["Camera", "Cube", "Light", "Sphere"] });
      expect(onMain).toEqual(["mesh.primitive_uv_sphere_add"]);
      expect(await adapter.call("ping")).toMatchObject({ loop: "pump", background: false });
      // That script was one step of the window's undo stack: one ed.undo (the person's Ctrl-Z)
      // takes all of it back.
      const undone = await executor.execute(
        'dispatch("ed.undo", {}); return dispatch("data.list", { collection: "objects" }).map((o) => o.name);',
        { timeoutSecs: 120 },
      );
      expect(undone).toMatchObject({ success: true, output: ["Camera", "Cube", "Light"] });

      // The user quits Blender: the adapter never ended it, and says it is gone.
      stopGroup(blender);
      await waitFor(
        "the host reported gone",
        () => statuses.some((s) => s.state === "unavailable"),
        120_000,
      );
      const gone = await executor.execute(
        'try { dispatch("data.list", { collection: "objects" }); } catch (e) { return e.code; }',
      );
      expect(gone).toMatchObject({ success: true, output: "HOST_GONE" });

      // The user starts Blender again with the add-on: the adapter reattaches.
      blender = startInteractiveBlender(join(folder, "link"), dataDir, join(folder, "tmp"));
      await waitFor("the host back", () => statuses.at(-1)?.state === "ready", 180_000);
      const again = await executor.execute(
        'return dispatch("data.list", { collection: "objects" }).length;',
        {
          timeoutSecs: 120,
        },
      );
      expect(again).toMatchObject({ success: true, output: 3 });
      // The gone Blender was told through the main thread, by the script's transaction begin
      // that comes before its first command there (so the list never ran); the new Blender is
      // read on a new lane.
      expect(onMain).toEqual(["mesh.primitive_uv_sphere_add", "ed.undo"]);
      expect(adapter.launches).toBe(2);
    } finally {
      await executor.close();
    }
  });
});
