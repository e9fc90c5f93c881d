// The Maya side's plain-Python unit tests (policy over the generated rule data, values, the
// stand-in's strictness) run once while this file is collected, through the link's JSON
// reporter; each becomes a vitest test.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commandsData } from "./support/stand-in-paths.ts";

interface PythonTestRecord {
  id: string;
  outcome: "passed" | "failed" | "error" | "skipped";
  detail: string;
}

const pythonDir = fileURLToPath(new URL("../python", import.meta.url));
const linkPythonDir = fileURLToPath(new URL("../../link/python", import.meta.url));

const records = JSON.parse(
  execFileSync(
    "python3",
    ["-S", join(linkPythonDir, "tests", "report.py"), join(pythonDir, "tests")],
    {
      encoding: "utf8",
      timeout: 120_000,
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: "1",
        DCC_MAYA_STAND_IN_COMMANDS: commandsData,
      },
    },
  ),
) as PythonTestRecord[];

describe("python unit tests", () => {
  it("found the suite", () => {
    expect(records.length).toBeGreaterThan(15);
  });

  it.each(records.map((record) => [record.id, record] as const))("%s", (_id, record) => {
    expect(record.outcome, record.detail).toBe("passed");
  });
});
