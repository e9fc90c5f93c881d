// Counted, not timed: a script's change report and undo bookkeeping do no per-data-block work per
// command on a 10,000-object scene (python/tests/blender_change_work.py, inside Blender).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertBlender, describeWithBlender, linkPythonDir } from "@dcc/test-support";
import { expect, it } from "vitest";

const script = fileURLToPath(new URL("../python/tests/blender_change_work.py", import.meta.url));

describeWithBlender("a data command's change report on a large scene", () => {
  it("does no Python work per data-block, lists names once and evaluates the scene once per script", {
    timeout: 300_000,
  }, () => {
    assertBlender();
    // Blender leaves blender_* folders in TMPDIR when killed: give it its own.
    const temp = mkdtempSync(join(tmpdir(), "dcc-blender-work-"));
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
          script,
        ],
        {
          encoding: "utf8",
          timeout: 240_000,
          env: { ...process.env, TMPDIR: temp, DCC_LINK_PYTHON_PATH: linkPythonDir },
        },
      );
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(0);
      expect(output).toContain("CHANGE WORK OK");
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
