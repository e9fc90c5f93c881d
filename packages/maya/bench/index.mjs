// Reference server benchmark: search quality and cost of the catalog `dcc_search` queries (the
// Maya adapter's catalog, with descriptions, Maya synonyms and every flag as a keyword field),
// against the BUILT package. Rows: recall@1 and recall@5 on the broad agent-query set and on the
// original 72-query set, query p50 over the broad set and index build time; each beside the same
// catalog without descriptions (signatures, flags and synonyms only), measured in the same run.
// The query sets are TypeScript fixtures, read through tsx (data only; the catalog is the build).
import { tsImport } from "tsx/esm/api";
import { median } from "../../../bench/support.mjs";

const builds = 7;
const queryRounds = 10;

function recall(catalog, cases, k) {
  let found = 0;
  for (const { query, expected } of cases) {
    const names = catalog.search(query, { limit: k }).map((record) => record.name);
    if (names.some((name) => expected.includes(name))) found++;
  }
  return found / cases.length;
}

// A fresh catalog, indexed: the index is built on the first search.
function built(createMayaCatalog, options) {
  const catalog = createMayaCatalog(options);
  catalog.search("sphere");
  return catalog;
}

/** Runs the reference server benchmark and returns its rows. */
export async function run({ log }) {
  const { createMayaAdapter, createMayaCatalog } = await import("@dcc/maya");
  const fixtures = new URL("../src/catalog/__fixtures__/", import.meta.url);
  const { BROAD_AGENT_QUERIES: broad } = await tsImport(
    new URL("agent-queries-broad.ts", fixtures).href,
    import.meta.url,
  );
  const { AGENT_QUERIES: original } = await tsImport(
    new URL("agent-queries.ts", fixtures).href,
    import.meta.url,
  );

  // Exactly the catalog the server's dcc_search tool searches.
  const served = createMayaAdapter().catalog();
  const bare = built(createMayaCatalog, { withoutDescriptions: true });

  // Build times: a new catalog and its index, alternating with the bare one under the same load.
  const ourCpu = [];
  const bareCpu = [];
  const timed = (options, cpu) => {
    const usage = process.cpuUsage();
    built(createMayaCatalog, options);
    const used = process.cpuUsage(usage);
    cpu.push((used.user + used.system) / 1000);
  };
  for (let round = 0; round < builds; round++) {
    timed({}, ourCpu);
    timed({ withoutDescriptions: true }, bareCpu);
  }
  log(`built the Maya catalog ${builds} times with and without descriptions`);

  const queries = broad.map((entry) => entry.query);
  served.search(queries[0]);
  const ourTimes = [];
  const bareTimes = [];
  for (let round = 0; round < queryRounds; round++) {
    for (const query of queries) {
      let started = performance.now();
      served.search(query, { limit: 10 });
      ourTimes.push(performance.now() - started);
      started = performance.now();
      bare.search(query, { limit: 10 });
      bareTimes.push(performance.now() - started);
    }
  }
  log(`ran ${queries.length} queries ${queryRounds} times each`);

  const buildCpu = median(ourCpu);
  const query = median(ourTimes) * 1000;
  const rows = [
    {
      metric: "Maya catalog index build, with descriptions (CPU)",
      ours: buildCpu,
      baseline: median(bareCpu),
      unit: "ms",
      goal: "< 50 ms",
      pass: buildCpu < 50,
    },
    {
      metric: `dcc_search query p50 (${queries.length} agent queries)`,
      ours: query,
      baseline: median(bareTimes) * 1000,
      unit: "µs",
      goal: "< 100 µs",
      pass: query < 100,
    },
  ];
  for (const [cases, name, goal5] of [
    [broad, "broad set", 0.92],
    [original, "72-query set", 0.95],
  ]) {
    for (const k of [1, 5]) {
      const ours = recall(served, cases, k);
      rows.push({
        metric: `dcc_search recall@${k}, ${name} (${cases.length} queries)`,
        ours,
        baseline: recall(bare, cases, k),
        unit: "fraction",
        ...(k === 5 ? { goal: `>= ${goal5}`, pass: ours >= goal5 } : {}),
        lowerIsBetter: false,
      });
    }
  }
  return rows;
}
