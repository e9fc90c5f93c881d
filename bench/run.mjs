// `pnpm bench`: runs every package's benchmark module against the built packages and prints one
// table of metric, ours, baseline, ratio and goal. Each module measures its own baseline in the
// same run, so the ratio is meaningful on a noisy machine.
//
// A benchmark module is `packages/<name>/bench/index.mjs`, `apps/<name>/bench/index.mjs` or
// `tooling/<name>/bench/index.mjs` (run in that order) and exports `run(context)` returning rows:
//   { metric, ours, baseline?, unit, goal?, pass? , lowerIsBetter? }
// `ours`/`baseline` are numbers in `unit`; `goal` is text; `pass` is true, false or undefined.
// `context` is `{ root, log, rows, remainingMs }`: `rows` holds the rows earlier modules produced,
// so a later module can fill in a figure nobody reported; `remainingMs` is what is left of the
// time budget, so a module with a timed run can shorten it (and say so in its metric) to fit.
// Each module runs in a process of its own (`run-module.mjs`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv.slice(2);
// `pnpm bench` must finish in under 6 minutes on 2 cores (the Blender scene-size sweep builds
// scenes of up to 10,000 objects or more and times operators on them); the build before this
// script takes 5-20 s of that.
const budgetMs = 330_000;
const started = performance.now();

const modules = [];
for (const group of ["packages", "apps", "tooling"]) {
  for (const name of readdirSync(join(root, group)).sort()) {
    const file = join(root, group, name, "bench", "index.mjs");
    if (existsSync(file) && (only.length === 0 || only.includes(name)))
      modules.push({ name, file });
  }
}

/** Runs one module in a child process (see run-module.mjs) and returns its rows. */
function runInOwnProcess(file, context) {
  const contextFile = join(mkdtempSync(join(tmpdir(), "dcc-bench-")), "context.json");
  try {
    writeFileSync(contextFile, JSON.stringify(context));
    const result = spawnSync(
      process.execPath,
      ["--expose-gc", join(root, "bench", "run-module.mjs"), file, contextFile],
      {
        stdio: ["ignore", "inherit", "inherit"],
        timeout: Math.round(Math.max(30_000, context.remainingMs + 60_000)),
      },
    );
    if (result.status !== 0) {
      throw new Error(result.error?.message ?? `exited with ${result.status ?? result.signal}`);
    }
    return JSON.parse(readFileSync(contextFile, "utf8")).rows;
  } finally {
    rmSync(dirname(contextFile), { recursive: true, force: true });
  }
}

const rows = [];
const timings = {};
for (const { name, file } of modules) {
  const elapsed = performance.now() - started;
  if (elapsed > budgetMs) {
    rows.push({ group: name, metric: "(skipped: time budget spent)", unit: "" });
    continue;
  }
  process.stderr.write(`bench: ${name}…\n`);
  const moduleStarted = performance.now();
  try {
    const produced = runInOwnProcess(file, {
      root,
      rows: rows.map((row) => ({ ...row })),
      remainingMs: budgetMs - (performance.now() - started),
    });
    for (const row of produced) rows.push({ group: name, ...row });
  } catch (error) {
    rows.push({ group: name, metric: `(failed: ${error?.message ?? error})`, unit: "" });
    process.exitCode = 1;
  }
  const seconds = (performance.now() - moduleStarted) / 1000;
  timings[name] = Math.round(seconds * 10) / 10;
  process.stderr.write(`  (${name}: ${seconds.toFixed(1)} s)\n`);
}

const format = (value) => {
  if (typeof value !== "number") return value === undefined ? "" : String(value);
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
};
for (const row of rows) {
  if (
    row.ratio === undefined &&
    typeof row.ours === "number" &&
    typeof row.baseline === "number" &&
    row.baseline !== 0
  ) {
    row.ratio = row.ours / row.baseline;
  }
}
const header = ["package", "metric", "ours", "baseline", "ratio", "unit", "goal", "met"];
const table = rows.map((row) => [
  row.group,
  row.metric,
  format(row.ours),
  format(row.baseline),
  row.ratio === undefined ? "" : `${format(row.ratio)}×`,
  row.unit ?? "",
  row.goal ?? "",
  row.pass === undefined ? "" : row.pass ? "yes" : "NO",
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => String(r[i]).length)));
const line = (cells) =>
  cells
    .map((c, i) => String(c).padEnd(widths[i]))
    .join("  ")
    .trimEnd();
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const r of table) console.log(line(r));
const totalSeconds = (performance.now() - started) / 1000;
const perModule = Object.entries(timings)
  .map(([name, seconds]) => `${name} ${seconds} s`)
  .join(", ");
console.log(
  `\n${rows.length} figures in ${totalSeconds.toFixed(1)} s on Node ${process.version} (${perModule})`,
);
writeFileSync(
  join(root, "bench", "results.json"),
  `${JSON.stringify({ node: process.version, seconds: totalSeconds, moduleSeconds: timings, rows }, null, 2)}\n`,
);
