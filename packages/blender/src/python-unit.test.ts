import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

interface PythonTestRecord {
  id: string;
  outcome: "passed" | "failed" | "error" | "skipped";
  detail: string;
}

const pythonDir = fileURLToPath(new URL("../python", import.meta.url));
// The link's Python side, which the host imports (Blender ignores PYTHONPATH).
const linkPythonDir = fileURLToPath(new URL("../../link/python", import.meta.url));

// The host's plain-Python unit tests (paths, policy: no bpy) run once while this file is
// collected, through the link's JSON reporter; each becomes a vitest test.
const records = JSON.parse(
  execFileSync(
    "python3",
    ["-S", join(linkPythonDir, "tests", "report.py"), join(pythonDir, "tests")],
    {
      encoding: "utf8",
      timeout: 60_000,
      // The policy builds on dcc_link's DataFolder, as it does inside Blender.
      env: { ...process.env, PYTHONPATH: linkPythonDir, PYTHONDONTWRITEBYTECODE: "1" },
    },
  ),
) as PythonTestRecord[];

describe("python unit tests", () => {
  it("found the suite", () => {
    expect(records.length).toBeGreaterThan(20);
  });

  it.each(records.map((record) => [record.id, record] as const))("%s", (_id, record) => {
    expect(record.outcome, record.detail).toBe("passed");
  });
});

function onPath(name: string): boolean {
  for (const folder of (process.env["PATH"] ?? "").split(delimiter)) {
    try {
      accessSync(join(folder, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

const haveBlender = onPath("blender");
const requireBlender = process.env["DCC_REQUIRE_BLENDER"] === "1";

describe("inside Blender", () => {
  if (!haveBlender && !requireBlender) {
    it.skip("blender_smoke.py (blender is not on PATH: apt-get install -y blender)", () => {});
    return;
  }

  it("blender_smoke.py passes", { timeout: 300_000 }, () => {
    expect(
      haveBlender,
      "DCC_REQUIRE_BLENDER=1 but blender is not on PATH (apt-get install -y blender)",
    ).toBe(true);
    // Blender leaves blender_* folders in TMPDIR when killed: give it its own.
    const temp = mkdtempSync(join(tmpdir(), "dcc-blender-smoke-"));
    try {
      const run = spawnSync(
        "blender",
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
