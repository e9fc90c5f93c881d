// `@dcc/blender` benchmark: the Blender catalog (2,144 operators and the data commands) against
// MiniSearch 7 on the same records in the same run: index build time, query latency, and
// recall@1/@5 on the package's fixed agent-query set (test/fixtures/agent-queries.json); then,
// where Blender is installed, the real-Blender figures of `host.mjs`, per Blender version (the
// host's and tooling/blender-roots') those of `versions.mjs`, the scene-size sweep of
// `scene-sweep.mjs`, the captures' and the recovery copy's cost (`recovery.mjs`).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createBlenderCatalog } from "@dcc/blender";
import MiniSearch from "minisearch";
import { commandTokenize, median, recall } from "../../../bench/support.mjs";
import { runCaptureBench } from "./capture.mjs";
import { runHostBench } from "./host.mjs";
import { runRecoveryBench } from "./recovery.mjs";
import { runSceneSweep } from "./scene-sweep.mjs";
import { runVersionsBench } from "./versions.mjs";

const queryFile = join(import.meta.dirname, "..", "test", "fixtures", "agent-queries.json");
const builds = 7;
const queryRounds = 20;
// MiniSearch's fuzzy queries take milliseconds; fewer rounds keep the run short.
const miniQueryRounds = 3;

// MiniSearch as one would configure it for command search: name boosted, label and description
// (with the catalog's used-for notes) searched too, prefix and fuzzy matching on, names split at
// dots and underscores. It has no synonyms and does not see the signatures.
const tokenize = commandTokenize;
function buildMiniSearch(records) {
  const index = new MiniSearch({
    fields: ["name", "label", "description"],
    idField: "name",
    tokenize,
    searchOptions: { boost: { name: 3, label: 2 }, prefix: true, fuzzy: 0.2 },
  });
  index.addAll(records.map(({ name, label, description }) => ({ name, label, description })));
  return index;
}

function hasBlender() {
  return spawnSync("blender", ["--version"], { timeout: 60_000 }).status === 0;
}

function buildOurs() {
  const catalog = createBlenderCatalog();
  catalog.search("sphere"); // the index is built on the first search
  return catalog;
}

/** Runs the Blender catalog benchmark and returns its rows. */
export async function run({ log, remainingMs }) {
  const moduleStart = performance.now();
  const cases = JSON.parse(readFileSync(queryFile, "utf8"));
  let started = performance.now();
  const first = buildOurs();
  const coldLoad = performance.now() - started;
  const records = [...first];

  const ourBuilds = [];
  const miniBuilds = [];
  const timed = (build, times) => {
    const usage = process.cpuUsage();
    build();
    const used = process.cpuUsage(usage);
    times.push((used.user + used.system) / 1000);
  };
  buildMiniSearch(records);
  for (let round = 0; round < builds; round++) {
    timed(buildOurs, ourBuilds);
    timed(() => buildMiniSearch(records), miniBuilds);
  }
  log(`built ${records.length} records ${builds} times each`);

  const ours = buildOurs();
  const mini = buildMiniSearch(records);
  const searchOurs = (query, limit) => ours.search(query, { limit }).map((r) => r.name);
  const searchMini = (query, limit) =>
    mini
      .search(query)
      .slice(0, limit)
      .map((r) => r.id);
  const ourTimes = [];
  const miniTimes = [];
  for (let round = 0; round < queryRounds; round++) {
    for (const { query } of cases) {
      started = performance.now();
      searchOurs(query, 10);
      ourTimes.push(performance.now() - started);
      if (round < miniQueryRounds) {
        started = performance.now();
        searchMini(query, 10);
        miniTimes.push(performance.now() - started);
      }
    }
  }
  log(`ran ${cases.length} queries ${queryRounds} times each`);

  const build = median(ourBuilds);
  const miniBuild = median(miniBuilds);
  const query = median(ourTimes) * 1000;
  const miniQuery = median(miniTimes) * 1000;
  const rows = [
    {
      metric: `first catalog load + index build, ${records.length} commands (wall)`,
      ours: coldLoad,
      unit: "ms",
    },
    {
      metric: `catalog + index build, ${records.length} commands (CPU)`,
      ours: build,
      baseline: miniBuild,
      unit: "ms",
      goal: "< 100 ms",
      pass: build < 100,
    },
    {
      metric: "query p50 (ranked)",
      ours: query,
      baseline: miniQuery,
      unit: "µs",
      goal: "< 100 µs and < MiniSearch",
      pass: query < 100 && query < miniQuery,
    },
  ];
  for (const k of [1, 5]) {
    const ourRecall = recall(searchOurs, cases, k);
    const miniRecall = recall(searchMini, cases, k);
    const row = {
      metric: `recall@${k} (${cases.length} agent queries)`,
      ours: ourRecall,
      baseline: miniRecall,
      unit: "fraction",
      lowerIsBetter: false,
    };
    rows.push(k === 5 ? { ...row, goal: ">= 0.9", pass: ourRecall >= 0.9 } : row);
  }
  rows.push(...(await runHostBench({ log })));
  const left = () => remainingMs - (performance.now() - moduleStart);
  // Each Blender version: start-to-ready and first-launch catalog generation.
  rows.push(...(await runVersionsBench({ log, remainingMs: Math.min(60_000, left() - 30_000) })));
  if (hasBlender()) {
    // The sweep keeps a minute and a half of what is left for the captures and recovery copies.
    rows.push(...(await runSceneSweep({ log, remainingMs: left() - 90_000 })));
  }
  // The capture runs launch two more Blenders: they get what is left of the bench's time.
  rows.push(...(await runCaptureBench({ log, remainingMs: left() })));
  // The recovery copy's cost launches one more Blender, in what is left after the captures.
  rows.push(...(await runRecoveryBench({ log, remainingMs: left() })));
  return rows;
}
