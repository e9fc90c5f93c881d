import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assertBlender,
  blenderInstallCommand,
  describePythonUnitTests,
  hasBlender,
  linkPythonDir,
  requireBlender,
} from "@dcc/test-support";
import { describe, expect, it } from "vitest";

const pythonDir = fileURLToPath(new URL("../python", import.meta.url));

// The host's plain-Python unit tests (paths, policy: no bpy), each a vitest test. The policy
// builds on dcc_link's DataFolder, as it does inside Blender.
describePythonUnitTests({
  testsDir: join(pythonDir, "tests"),
  atLeast: 21,
  env: { PYTHONPATH: linkPythonDir },
});

describe("inside Blender", () => {
  if (!hasBlender && !requireBlender) {
    it.skip(`blender_smoke.py (no Blender: ${blenderInstallCommand})`, () => {});
    return;
  }

  it("blender_smoke.py passes", { timeout: 300_000 }, () => {
    assertBlender();
    // Blender leaves blender_* folders in TMPDIR when killed: give it its own.
    const temp = mkdtempSync(join(tmpdir(), "dcc-blender-smoke-"));
    try {
      const run = spawnSync(
        process.env["BLENDER_BIN"] ?? "blender",
        [
          "-b",
          "--factory-startup",
          "--disable-autoexec",
          "--python-exit-code",
          "1",
          "--python",
          join(pythonDir, "tests", "blender_smoke.py"),
        ],
        {
          encoding: "utf8",
          timeout: 240_000,
          env: { ...process.env, TMPDIR: temp, DCC_LINK_PYTHON_PATH: linkPythonDir },
        },
      );
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(0);
      expect(output).toContain("SMOKE OK");
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
