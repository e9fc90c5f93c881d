import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { linkPythonPath } from "@dcc/link";
import { processAlive } from "@dcc/test-support";

const scriptsDir = fileURLToPath(new URL("../../python", import.meta.url));

/**
 * An interactive Blender (its window manager under Xvfb) with the add-on enabled, as a user runs
 * it, writing its connection file into `linkDir`. Its temporary files go to `tempDir`.
 */
export function startInteractiveBlender(
  linkDir: string,
  dataDir: string,
  tempDir: string,
): ChildProcess {
  mkdirSync(tempDir, { recursive: true, mode: 0o700 });
  return spawn(
    "xvfb-run",
    [
      "-a",
      "blender",
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

/** Ends the interactive Blender's whole process group (xvfb-run and Blender). */
export function stopInteractiveBlender(child: ChildProcess | undefined): void {
  if (child?.pid !== undefined && processAlive(child.pid)) process.kill(-child.pid, "SIGTERM");
}
