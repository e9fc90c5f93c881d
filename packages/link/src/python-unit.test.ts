import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { python, pythonArgs } from "./__fixtures__/python.ts";
import { linkPythonPath } from "./python-path.ts";

interface PythonTestRecord {
  id: string;
  outcome: "passed" | "failed" | "error" | "skipped";
  detail: string;
}

// The Python side's unit tests (python/tests, stdlib unittest) run once while this file is
// collected; each becomes a vitest test, so they are counted with the rest.
const report = fileURLToPath(new URL("../python/tests/report.py", import.meta.url));
const records = JSON.parse(
  execFileSync(python, [...pythonArgs, report], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PYTHONPATH: linkPythonPath(), PYTHONDONTWRITEBYTECODE: "1" },
  }),
) as PythonTestRecord[];

describe("python unit tests", () => {
  it("found the suite", () => {
    expect(records.length).toBeGreaterThan(20);
  });

  it.each(records.map((record) => [record.id, record] as const))("%s", (_id, record) => {
    expect(record.outcome, record.detail).toBe("passed");
  });
});
