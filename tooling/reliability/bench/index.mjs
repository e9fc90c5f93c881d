// Benchmark of @dcc/reliability, against the BUILT packages: the full soak (10,000 sequential
// executions and 1,000 cancellations: RSS, sandbox workers, active handles and timers before and
// after) and the load run (8 concurrent MCP sessions for 20 s on loopback mixing dcc_search and
// dcc_execute: errors, throughput and p99 beside one session). When no earlier module reported
// them, it also measures `return 1+1` through DccApiExecutor beside node:vm and one dispatch
// round trip beside a direct host call.
import { createRequire, syncBuiltinESMExports } from "node:module";
import vm from "node:vm";
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";
import { createReferenceServer } from "@dcc/reference-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const soakExecutions = 10_000;
const soakCancellations = 1_000;
const loadSessions = 8;
const loadMs = 20_000;
/** The shortest load run worth reporting when the time budget is nearly spent. */
const minLoadMs = 5_000;
const singleSessionMs = 3_000;
const mib = 1024 * 1024;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const median = (values) => quantile(values, 0.5);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const gc = () => globalThis.gc?.();
async function waitUntil(predicate, ms) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await sleep(2);
  }
  return true;
}

/** Counts live worker threads by swapping node:worker_threads' Worker for a tracked subclass. */
function trackWorkers() {
  const threads = createRequire(import.meta.url)("node:worker_threads");
  const Original = threads.Worker;
  const live = new Set();
  threads.Worker = class TrackedWorker extends Original {
    constructor(...args) {
      super(...args);
      live.add(this);
      this.once("exit", () => live.delete(this));
    }
  };
  syncBuiltinESMExports();
  return {
    live: () => live.size,
    restore() {
      threads.Worker = Original;
      syncBuiltinESMExports();
    },
  };
}

function activeResources() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}
const total = (counts) => Object.values(counts).reduce((sum, count) => sum + count, 0);

function makeExecutor() {
  const maya = createMayaAdapter();
  const state = { marks: 0 };
  const registry = new ToolRegistry().registerAll([
    ...maya.commands(),
    { name: "noop", handler: () => null },
    { name: "mark", handler: () => ++state.marks },
    {
      name: "wait",
      handler: (_args, { signal }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 5000);
          signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              reject(new Error("aborted"));
            },
            { once: true },
          );
        }),
    },
  ]);
  const dispatcher = new ToolDispatcher(registry);
  const executor = new DccApiExecutor("maya", { catalog: maya.catalog(), dispatcher });
  return { executor, dispatcher, state };
}

/**
 * Starts a script that spins (even `index`) or waits in a host command (odd), cancels it once it
 * runs, and returns how many of the two checks failed (it started; it ended as cancelled).
 */
async function cancelOne(executor, state, index) {
  let failed = 0;
  const abort = new AbortController();
  const marks = state.marks;
  const code =
    index % 2 === 0
      ? "dispatch('mark', {}); for (;;) {}"
      : "dispatch('mark', {}); dispatch('wait', {});";
  const running = executor.execute(code, { signal: abort.signal, timeoutSecs: 10 });
  if (!(await waitUntil(() => state.marks > marks, 5000))) failed++;
  abort.abort();
  const result = await running;
  if (result.errorCode !== "CANCELLED") failed++;
  return failed;
}

async function soak(log) {
  const tracker = trackWorkers();
  const { executor, state } = makeExecutor();
  try {
    await executor.pool.warmUp();
    // "Before" is the working set of a process that has already done both kinds of work the soak
    // repeats (executions, and cancellations, which replace sandbox workers): a leak is what
    // grows beyond it. The warm-up counts nowhere else.
    for (let index = 0; index < soakExecutions / 5; index++)
      await executor.execute("return dispatch('objExists', { args: ['lambert1'] });");
    for (let index = 0; index < soakCancellations / 10; index++)
      await cancelOne(executor, state, index);
    gc();
    await sleep(50);
    const rssBefore = process.memoryUsage().rss;
    const resourcesBefore = activeResources();
    const workersBefore = tracker.live();
    const started = performance.now();
    let failures = 0;
    let rssHalfway = 0;
    for (let index = 0; index < soakExecutions; index++) {
      if (index === soakExecutions / 2) {
        gc();
        rssHalfway = process.memoryUsage().rss;
      }
      const result = await executor.execute(
        `console.log("run", ${index}); return dispatch("objExists", { args: ["lambert1"] }) ? ${index} : -1;`,
        { timeoutSecs: 10 },
      );
      if (!result.success || result.output !== index) failures++;
    }
    const executionMs = performance.now() - started;
    const cancelStarted = performance.now();
    for (let index = 0; index < soakCancellations; index++)
      failures += await cancelOne(executor, state, index);
    const cancelMs = performance.now() - cancelStarted;
    await waitUntil(() => tracker.live() === workersBefore, 5000);
    await sleep(50);
    gc();
    await sleep(50);
    const rssAfter = process.memoryUsage().rss;
    const resourcesAfter = activeResources();
    const workersAfter = tracker.live();
    log(
      `soak: ${soakExecutions} executions in ${(executionMs / 1000).toFixed(1)} s, ${soakCancellations} cancellations in ${(cancelMs / 1000).toFixed(1)} s, ${failures} failures; RSS ${(rssBefore / mib).toFixed(1)} → ${(rssHalfway / mib).toFixed(1)} (halfway) → ${(rssAfter / mib).toFixed(1)} MiB; workers ${workersBefore} → ${workersAfter}; resources ${JSON.stringify(resourcesBefore)} → ${JSON.stringify(resourcesAfter)}`,
    );
    return {
      rssBefore,
      rssHalfway,
      rssAfter,
      workersBefore,
      workersAfter,
      resourcesBefore,
      resourcesAfter,
      failures,
      executionMs,
    };
  } finally {
    await executor.close();
    tracker.restore();
  }
}

/** `return 1+1` end to end with a warm pool, beside a fresh node:vm context running the same. */
async function executeVsVm(rounds) {
  const { executor } = makeExecutor();
  try {
    await executor.pool.warmUp();
    for (let index = 0; index < 100; index++) await executor.execute("return 1+1");
    const ours = [];
    const floor = [];
    const script = new vm.Script("(async () => { return 1+1\n})()");
    for (let index = 0; index < rounds; index++) {
      let started = performance.now();
      await executor.execute("return 1+1");
      ours.push(performance.now() - started);
      started = performance.now();
      await script.runInContext(vm.createContext({}), { timeout: 30_000 });
      floor.push(performance.now() - started);
    }
    return { ours: median(ours), vm: median(floor) };
  } finally {
    await executor.close();
  }
}

/** One dispatch round trip to a no-op command, beside awaiting the dispatcher directly. */
async function dispatchRoundTrip(rounds, calls) {
  const { executor, dispatcher } = makeExecutor();
  try {
    await executor.pool.warmUp();
    const loop = `for (let i = 0; i < ${calls}; i++) dispatch('noop', {}); return 1;`;
    const empty = `for (let i = 0; i < ${calls}; i++) {} return 1;`;
    await executor.execute(loop);
    const ours = [];
    const direct = [];
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      await executor.execute(loop);
      const withCalls = performance.now() - started;
      started = performance.now();
      await executor.execute(empty);
      const without = performance.now() - started;
      ours.push(((withCalls - without) * 1000) / calls);
      started = performance.now();
      for (let index = 0; index < calls; index++) await dispatcher.dispatch("noop", {});
      direct.push(((performance.now() - started) * 1000) / calls);
    }
    return { ours: median(ours), direct: median(direct) };
  } finally {
    await executor.close();
  }
}

const queries = [
  "create a sphere",
  "move an object",
  "set keyframe",
  "list selected",
  "parent to group",
];
const scripts = [
  "return 1 + 1;",
  "return dispatch('objExists', { args: ['lambert1'] });",
  "const [cube] = dispatch('polyCube', {}); dispatch('move', { args: [1, 2, 3, cube] }); dispatch('delete', { args: [cube] }); return cube;",
  "let sum = 0; for (let i = 0; i < 10000; i++) sum += i; return sum;",
];

async function drive(clients, ms) {
  const latencies = [];
  let errors = 0;
  const deadline = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, session) => {
      for (let round = 0; performance.now() < deadline; round++) {
        const search = round % 2 === 0;
        const request = search
          ? {
              name: "dcc_search",
              arguments: { query: queries[(round + session) % queries.length], limit: 5 },
            }
          : {
              name: "dcc_execute",
              arguments: { code: scripts[(round + session) % scripts.length], timeout_secs: 10 },
            };
        const callStarted = performance.now();
        try {
          const result = await client.callTool(request, undefined, { timeout: 15_000 });
          if (result.isError || result.structuredContent?.success !== true) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - callStarted);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    calls: latencies.length,
    errors,
    throughput: latencies.length / seconds,
    p50: median(latencies),
    p99: quantile(latencies, 0.99),
  };
}

async function load(log, durationMs) {
  const server = await createReferenceServer({ port: 0 });
  const clients = [];
  try {
    for (let index = 0; index < loadSessions; index++) {
      const client = new Client({ name: "bench-load", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      clients.push(client);
    }
    await drive(clients, 500); // warm-up
    const single = await drive(clients.slice(0, 1), singleSessionMs);
    const eight = await drive(clients, durationMs);
    log(
      `load: ${loadSessions} sessions ${eight.calls} calls in ${durationMs / 1000} s, ${eight.errors} errors, ${eight.throughput.toFixed(0)}/s, p50 ${eight.p50.toFixed(2)} ms, p99 ${eight.p99.toFixed(2)} ms; 1 session ${single.throughput.toFixed(0)}/s, p99 ${single.p99.toFixed(2)} ms`,
    );
    return { single, eight };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await server.close();
  }
}

/** @param {{ root: string, log: (line: string) => void, rows?: Array<{ metric: string }>, remainingMs?: number }} context */
export async function run({ log, rows: earlier = [], remainingMs = Number.POSITIVE_INFINITY }) {
  const started = performance.now();
  const left = () => remainingMs - (performance.now() - started);
  const rows = [];
  const reported = (pattern) => earlier.some((row) => pattern.test(row.metric));

  if (!reported(/return 1\s*\+\s*1/)) {
    const timing = await executeVsVm(300);
    log(`execute return 1+1 p50 ${timing.ours.toFixed(3)} ms (node:vm ${timing.vm.toFixed(3)} ms)`);
    rows.push({
      metric: "execute `return 1+1`, warm pool, p50 (baseline: fresh node:vm context)",
      ours: timing.ours,
      baseline: timing.vm,
      unit: "ms",
      goal: "≤ 1.5 ms and ≤ 3× vm",
      pass: timing.ours <= 1.5 && timing.ours <= 3 * timing.vm,
    });
  }
  if (!reported(/dispatch round trip/i)) {
    const timing = await dispatchRoundTrip(9, 2000);
    log(
      `dispatch round trip ${timing.ours.toFixed(1)} µs (direct await ${timing.direct.toFixed(1)} µs)`,
    );
    rows.push({
      metric:
        "dispatch round trip to a no-op command, p50 (baseline: awaiting the dispatcher directly)",
      ours: timing.ours,
      baseline: timing.direct,
      unit: "µs",
      goal: "≤ 50 µs",
      pass: timing.ours <= 50,
    });
  }

  const soaked = await soak(log);
  const growth = (soaked.rssAfter - soaked.rssBefore) / mib;
  rows.push({
    metric: `RSS after ${soakExecutions.toLocaleString("en")} executions + ${soakCancellations.toLocaleString("en")} cancellations (baseline: RSS before)`,
    ours: soaked.rssAfter / mib,
    baseline: soaked.rssBefore / mib,
    unit: "MiB",
    goal: "≤ before + 30 MiB",
    pass: growth <= 30,
  });
  rows.push({
    // Tells a leak (still climbing) from memory touched once while warming up (flat).
    metric: `soak: RSS growth from execution ${(soakExecutions / 2).toLocaleString("en")} to the end`,
    ours: (soaked.rssAfter - soaked.rssHalfway) / mib,
    unit: "MiB",
    goal: "report",
  });
  rows.push({
    metric: "soak: failed executions or cancellations",
    ours: soaked.failures,
    unit: "count",
    goal: "0",
    pass: soaked.failures === 0,
  });
  rows.push({
    metric: "soak: sandbox worker threads after (baseline: before)",
    ours: soaked.workersAfter,
    baseline: soaked.workersBefore,
    unit: "threads",
    goal: "= before",
    pass: soaked.workersAfter === soaked.workersBefore,
  });
  const timersBefore = soaked.resourcesBefore.Timeout ?? 0;
  const timersAfter = soaked.resourcesAfter.Timeout ?? 0;
  rows.push({
    metric: "soak: active handles and requests after (baseline: before)",
    ours: total(soaked.resourcesAfter),
    baseline: total(soaked.resourcesBefore),
    unit: "count",
    goal: "≤ before",
    pass: total(soaked.resourcesAfter) <= total(soaked.resourcesBefore),
  });
  rows.push({
    metric: "soak: active timers after (baseline: before)",
    ours: timersAfter,
    baseline: timersBefore,
    unit: "count",
    goal: "≤ before",
    pass: timersAfter <= timersBefore,
  });

  // The load run needs ~6 s besides its own duration (sessions, warm-up, one-session baseline).
  const loadFor = Math.round(Math.max(minLoadMs, Math.min(loadMs, left() - 6_000)) / 1000) * 1000;
  if (loadFor < loadMs)
    log(
      `load: time budget nearly spent, running ${loadFor / 1000} s instead of ${loadMs / 1000} s`,
    );
  const loaded = await load(log, loadFor);
  rows.push({
    metric: `load: ${loadSessions} sessions × ${loadFor / 1000} s search+execute, errors`,
    ours: loaded.eight.errors,
    unit: "count",
    goal: "0",
    pass: loaded.eight.errors === 0,
  });
  rows.push({
    metric: `load: throughput, ${loadSessions} sessions (baseline: 1 session)`,
    ours: loaded.eight.throughput,
    baseline: loaded.single.throughput,
    unit: "calls/s",
    goal: "report",
  });
  rows.push({
    metric: `load: p99 latency, ${loadSessions} sessions (baseline: 1 session)`,
    ours: loaded.eight.p99,
    baseline: loaded.single.p99,
    unit: "ms",
    goal: "report",
  });
  return rows;
}
