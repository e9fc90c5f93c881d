// `@dcc/catalog` benchmark: index build time and query latency of the ranked catalog against
// MiniSearch 7 on the same 1,469 signature-only Maya records in the same run, and recall@1/@5 of
// both rankers and MiniSearch on the shared query set (test/fixtures/maya-queries.json). One more
// build figure takes the reference app's record shape: signatures cut after 25 flags, every flag
// in a `flags` field indexed through `keywordFields`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DccApiCatalog } from "@dcc/catalog";
import MiniSearch from "minisearch";
import { commandTokenize, median, recall } from "../../../bench/support.mjs";
import { loadMayaRecords, mayaDataPath } from "../test/fixtures/maya-records.mjs";

const fixtures = join(import.meta.dirname, "..", "test", "fixtures");
const builds = 9;
const queryRounds = 30;
// MiniSearch's fuzzy queries take milliseconds; fewer rounds keep the run short.
const miniQueryRounds = 4;

// MiniSearch as one would configure it for command search: name boosted, prefix and fuzzy
// matching on, and camelCase split like ours so it can see "sphere" in polySphere.
const tokenize = commandTokenize;
function buildMiniSearch(records) {
  const index = new MiniSearch({
    fields: ["name", "signature"],
    idField: "name",
    tokenize,
    searchOptions: { boost: { name: 3 }, prefix: true, fuzzy: 0.2 },
  });
  index.addAll(records);
  return index;
}

function buildOurs(records, options) {
  const catalog = new DccApiCatalog("maya", { commands: records, ...options });
  catalog.search("sphere"); // the index is built on the first search
  return catalog;
}

// Positional parameters are not flags; the signature scanner leaves them out too.
const positional = new Set(["self", "args", "kwargs", "arg", "flags", "options"]);
function loadCutRecords(root) {
  const commands = JSON.parse(readFileSync(mayaDataPath(root), "utf8"));
  return commands.map((command) => {
    const flags = command.params
      .map((param) => param.name)
      .filter((flag) => !positional.has(flag) && flag !== command.name);
    return {
      name: command.name,
      signature: `${command.name}(${flags.slice(0, 25).join(", ")})`,
      flags,
    };
  });
}

/** Runs the catalog benchmark and returns its rows. */
export async function run({ root, log }) {
  const records = loadMayaRecords(root);
  const cutRecords = loadCutRecords(root);
  const cases = JSON.parse(readFileSync(join(fixtures, "maya-queries.json"), "utf8"));
  const synonyms = JSON.parse(readFileSync(join(fixtures, "maya-synonyms.json"), "utf8"));

  // Warm both up, then alternate builds so both see the same machine load.
  buildOurs(records, { synonyms });
  buildMiniSearch(records);
  // Wall time, and process CPU time (which leaves out time spent waiting for a core on a busy
  // machine but adds background threads: the garbage collector's helpers and the JIT compiler).
  const ourBuilds = [];
  const miniBuilds = [];
  const ourCpu = [];
  const miniCpu = [];
  const timed = (build, wall, cpu) => {
    const started = performance.now();
    const usage = process.cpuUsage();
    build();
    const used = process.cpuUsage(usage);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - started);
  };
  const keyedBuilds = [];
  const keyedCpu = [];
  const keyed = { synonyms, keywordFields: ["flags"] };
  buildOurs(cutRecords, keyed);
  for (let round = 0; round < builds; round++) {
    timed(() => buildOurs(records, { synonyms }), ourBuilds, ourCpu);
    timed(() => buildMiniSearch(records), miniBuilds, miniCpu);
    timed(() => buildOurs(cutRecords, keyed), keyedBuilds, keyedCpu);
  }
  log(`built ${records.length} records ${builds} times each`);

  const ranked = buildOurs(records, { synonyms });
  const overlap = buildOurs(records, { ranker: "overlap" });
  const mini = buildMiniSearch(records);
  const searchRanked = (query, limit) => ranked.search(query, { limit }).map((r) => r.name);
  const searchOverlap = (query, limit) => overlap.search(query, { limit }).map((r) => r.name);
  const searchMini = (query, limit) =>
    mini
      .search(query)
      .slice(0, limit)
      .map((r) => r.id);

  const queries = cases.map((entry) => entry.query);
  const ourTimes = [];
  const miniTimes = [];
  const overlapTimes = [];
  for (let round = 0; round < queryRounds; round++) {
    for (const query of queries) {
      let started = performance.now();
      searchRanked(query, 10);
      ourTimes.push(performance.now() - started);
      if (round < miniQueryRounds) {
        started = performance.now();
        searchMini(query, 10);
        miniTimes.push(performance.now() - started);
        started = performance.now();
        searchOverlap(query, 10);
        overlapTimes.push(performance.now() - started);
      }
    }
  }
  log(`ran ${queries.length} queries ${queryRounds} times each`);

  const build = median(ourBuilds);
  const miniBuild = median(miniBuilds);
  const buildCpu = median(ourCpu);
  const miniBuildCpu = median(miniCpu);
  const query = median(ourTimes) * 1000;
  const miniQuery = median(miniTimes) * 1000;
  const rows = [
    {
      metric: "index build, 1,469 commands (CPU)",
      ours: buildCpu,
      baseline: miniBuildCpu,
      unit: "ms",
      goal: "< 50 ms and < MiniSearch",
      pass: buildCpu < 50 && buildCpu < miniBuildCpu,
    },
    {
      metric: "index build, 1,469 commands (wall)",
      ours: build,
      baseline: miniBuild,
      unit: "ms",
      goal: "< 50 ms and < MiniSearch",
      pass: build < 50 && build < miniBuild,
    },
    {
      metric: "index build, cut signatures + keywordFields (CPU)",
      ours: median(keyedCpu),
      baseline: miniBuildCpu,
      unit: "ms",
      goal: "< 50 ms and < MiniSearch",
      pass: median(keyedCpu) < 50 && median(keyedCpu) < miniBuildCpu,
    },
    {
      metric: "query p50 (ranked)",
      ours: query,
      baseline: miniQuery,
      unit: "µs",
      goal: "< 100 µs and < MiniSearch",
      pass: query < 100 && query < miniQuery,
    },
    {
      metric: "query p50 (overlap, linear scan)",
      ours: median(overlapTimes) * 1000,
      baseline: miniQuery,
      unit: "µs",
    },
  ];
  for (const k of [1, 5]) {
    const mini = recall(searchMini, cases, k);
    const rankedRecall = recall(searchRanked, cases, k);
    rows.push({
      metric: `recall@${k} ranked (${cases.length} queries)`,
      ours: rankedRecall,
      baseline: mini,
      unit: "fraction",
      goal: k === 5 ? ">= 0.85" : "> MiniSearch",
      pass: k === 5 ? rankedRecall >= 0.85 : rankedRecall > mini,
      lowerIsBetter: false,
    });
    rows.push({
      metric: `recall@${k} overlap (${cases.length} queries)`,
      ours: recall(searchOverlap, cases, k),
      baseline: mini,
      unit: "fraction",
      lowerIsBetter: false,
    });
  }
  return rows;
}
