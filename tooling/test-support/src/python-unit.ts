import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** One plain-Python test, as the link's JSON reporter describes it. */
export interface PythonTestRecord {
  id: string;
  outcome: "passed" | "failed" | "error" | "skipped";
  detail: string;
}

/** The Python side of `@dcc/link` (`dcc_link`), which the DCC hosts import. */
export const linkPythonDir: string = fileURLToPath(
  new URL("../../../packages/link/python", import.meta.url),
);

/** Options of {@link describePythonUnitTests}. */
export interface PythonUnitTestsOptions {
  /** The folder of `test_*.py` files. */
  testsDir: string;
  /** Fewer records than this fails the suite (a folder that silently stopped being found). */
  atLeast: number;
  /** Extra environment for the Python process. */
  env?: Record<string, string>;
  /** Hang guard for the whole run, in ms. Default 120 000. */
  timeoutMs?: number;
}

/**
 * Runs a folder of plain-Python unit tests once, while the test file is collected, through the
 * link's JSON reporter (`python3 -S`, no site packages), and turns each into a vitest test.
 */
export function describePythonUnitTests(options: PythonUnitTestsOptions): void {
  const records = JSON.parse(
    execFileSync("python3", ["-S", join(linkPythonDir, "tests", "report.py"), options.testsDir], {
      encoding: "utf8",
      timeout: options.timeoutMs ?? 120_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...options.env },
    }),
  ) as PythonTestRecord[];

  describe("python unit tests", () => {
    it("found the suite", () => {
      expect(records.length).toBeGreaterThanOrEqual(options.atLeast);
    });

    it.each(records.map((record) => [record.id, record] as const))("%s", (_id, record) => {
      expect(record.outcome, record.detail).toBe("passed");
    });
  });
}
