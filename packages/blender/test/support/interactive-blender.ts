import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { linkPythonPath } from "@dcc/link";
import { processAlive, spawnTied } from "@dcc/test-support";

const scriptsDir = fileURLToPath(new URL("../../python", import.meta.url));

/**
 * An interactive Blender (its window manager under Xvfb) with the add-on enabled, as a user runs
 * it. Its temporary files (Blender's and xvfb-run's, which a SIGTERM to the group leaves behind)
 * go to `tempDir`, inside the test's folder.
 */
export function startInteractiveBlender(
  linkDir: string,
  dataDir: string,
  tempDir: string,
): ChildProcess {
  mkdirSync(tempDir, { recursive: true, mode: 0o700 });
  // Tied to this worker: if it is killed, the reaper ends xvfb-run, Xvfb and Blender.
  return spawnTied(
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
      tree: true,
    },
  );
}

/** Ends the interactive Blender's process group (xvfb-run, Xvfb and Blender). */
export function stopGroup(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && processAlive(child.pid)) process.kill(-child.pid, "SIGTERM");
}
