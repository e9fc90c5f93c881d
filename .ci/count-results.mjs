// Sums vitest's JSON reports from every workspace package (packages, apps, tooling and examples)
// and prints `N passed, M failed`.
// Exits non-zero when a test failed or when no test ran at all.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
const reports = [];
for (const group of ["packages", "apps", "tooling", "examples"]) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const file = join(group, name, ".vitest", "results.json");
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, "utf8"));
    reports.push(file);
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    if (report.success === false && report.numFailedTests === 0) {
      // A suite that failed to load counts as a failure even though no single test failed.
      failed += Math.max(1, report.numFailedTestSuites);
    }
  }
}
console.log(`reports: ${reports.length}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (failed > 0 || passed === 0) process.exit(1);
