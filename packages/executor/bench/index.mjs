// Benchmarks of @dcc/executor against the BUILT package (run `pnpm --filter @dcc/executor... build`
// first). Each figure sits beside a node:vm baseline measured in the same run; node:vm is no
// security boundary, it only marks the floor. The import-time figure sits beside a bare import of
// quickjs-emscripten-core, the sandbox's own dependency.
import { execFile } from "node:child_process";
import vm from "node:vm";
import { DccApiCatalog } from "@dcc/catalog";
import { createAdapterExecutor, DccApiExecutor } from "@dcc/executor";
import { median } from "../../../bench/support.mjs";
import { noopExecutor, noopLoop } from "./noop-executor.mjs";
import { threadRoundTrips } from "./thread-round-trip.mjs";

async function timeEach(count, fn) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

/** A node:vm "execution": a fresh context, the same async wrapper, JSON output. */
async function vmExecute(code, sandbox = {}) {
  const context = vm.createContext({ ...sandbox });
  const value = await vm.runInContext(`(async () => {${code}\n})()`, context);
  return JSON.parse(JSON.stringify(value ?? null));
}

// Heavy libraries a plain execute does not need in the calling thread.
const lazyLibraries = /[\\/]node_modules[\\/](?:ajv|sucrase|@babel[\\/]parser)[\\/]/;

/**
 * `await import(url)` in a fresh Node process: milliseconds, and whether it loaded any of
 * {@link lazyLibraries} (CommonJS modules imported from ESM land in the require cache).
 */
function importInChild(url) {
  const script = `
    const started = performance.now();
    await import(${JSON.stringify(url)});
    const ms = performance.now() - started;
    const { createRequire } = await import("node:module");
    const cache = createRequire(import.meta.url).cache;
    const heavy = Object.keys(cache).filter((file) => ${lazyLibraries}.test(file)).length;
    console.log(JSON.stringify({ ms, heavy }));`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { timeout: 60_000 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

/** Median import time of `@dcc/executor` (from dist) and of bare quickjs-emscripten-core. */
async function importTimes(runs) {
  const ours = [];
  const bare = [];
  let heavy = 0;
  const executorUrl = import.meta.resolve("@dcc/executor");
  const quickjsUrl = import.meta.resolve("quickjs-emscripten-core");
  // Alternated, so a burst of load on the machine hits both sides alike.
  for (let i = 0; i < runs; i++) {
    const measured = await importInChild(executorUrl);
    ours.push(measured.ms);
    heavy = Math.max(heavy, measured.heavy);
    bare.push((await importInChild(quickjsUrl)).ms);
  }
  return { ours: median(ours), baseline: median(bare), heavy };
}

export async function run({ log }) {
  const rows = [];
  const began = performance.now();
  const elapsed = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;

  // 0. Import cost, in fresh processes.
  const imports = await importTimes(9);
  rows.push({
    metric: '`await import("@dcc/executor")` in a fresh process, median of 9',
    ours: imports.ours,
    baseline: imports.baseline,
    unit: "ms",
    goal: "loads no Babel, sucrase or ajv",
    pass: imports.heavy === 0,
  });
  log(
    `import @dcc/executor ${imports.ours.toFixed(1)} ms vs quickjs-emscripten-core ${imports.baseline.toFixed(1)} ms, ${(imports.ours / imports.baseline).toFixed(2)}× (${imports.heavy} Babel/sucrase/ajv files loaded) (${elapsed()})`,
  );

  // The no-op command notes when each call reaches the host (noop-executor.mjs).
  const noop = noopExecutor();
  const { executor } = noop;
  try {
    await executor.pool.warmUp();

    // 1. `return 1+1` end to end with a warm pool.
    const check = await executor.execute("return 1+1");
    if (!check.success || check.output !== 2)
      throw new Error(`unexpected: ${JSON.stringify(check)}`);
    await timeEach(200, () => executor.execute("return 1+1"));
    await timeEach(200, () => vmExecute("return 1+1"));
    const ourTimes = await timeEach(1000, () => executor.execute("return 1+1"));
    const vmTimes = await timeEach(1000, () => vmExecute("return 1+1"));
    const ours = median(ourTimes);
    const baseline = median(vmTimes);
    const p10 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 10)];
    rows.push({
      metric: "execute `return 1+1`, warm pool, p50",
      ours,
      baseline,
      unit: "ms",
      goal: "≤ 1.5 ms and ≤ 3× node:vm",
      pass: ours <= 1.5 && ours <= 3 * baseline,
    });
    log(
      `execute p50 ${ours.toFixed(3)} ms (p10 ${p10(ourTimes).toFixed(3)}) vs node:vm ${baseline.toFixed(3)} ms (p10 ${p10(vmTimes).toFixed(3)}) (${elapsed()})`,
    );

    // 2. One dispatch round trip to a no-op host command: the p50 of the gaps between arrivals,
    // beside the bare thread round trip under it (thread-round-trip.mjs) measured in the same run,
    // and the process's CPU per call (both threads; wall time swings with the machine's load).
    const calls = 2000;
    const loop = noopLoop(calls);
    const emptyRun = median(await timeEach(20, () => executor.execute("return 1")));
    const dispatchRound = async (runs, on = executor) => {
      const gaps = [];
      const cpuBefore = process.cpuUsage();
      const loopRuns = await timeEach(runs, async () => {
        noop.reset();
        await on.execute(loop);
        noop.collectGaps(gaps);
      });
      const { user, system } = process.cpuUsage(cpuBefore);
      return {
        gaps,
        p50: median(gaps),
        mean: ((median(loopRuns) - emptyRun) / calls) * 1000,
        cpuPerCall: (user + system) / (runs * calls),
      };
    };
    const dispatched = await dispatchRound(7);
    let tracedRow;
    // The same with a tracing SDK registered, right after: the first 100 host calls of each script
    // get a span, the rest are only counted.
    const { NodeTracerProvider } = await import("@opentelemetry/sdk-trace-node");
    const { InMemorySpanExporter, SimpleSpanProcessor } = await import(
      "@opentelemetry/sdk-trace-base"
    );
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.register();
    try {
      await executor.execute(loop);
      const traced = await dispatchRound(7);
      if (exporter.getFinishedSpans().length === 0) throw new Error("no spans were recorded");
      tracedRow = {
        metric: "dispatch round trip, p50, tracing SDK registered (baseline: without)",
        ours: traced.p50,
        baseline: dispatched.p50,
        unit: "µs",
      };
      log(
        `dispatch p50 with a tracing SDK ${traced.p50.toFixed(1)} µs (CPU ${traced.cpuPerCall.toFixed(1)} µs per call) (${elapsed()})`,
      );
    } finally {
      await provider.shutdown();
      const { trace, context, propagation } = await import("@opentelemetry/api");
      trace.disable();
      context.disable();
      propagation.disable();
    }

    // The same with approval rules on that do not cover the command: what every call pays for
    // the rules a server turns on (a lookup by name), measured right after, on the same pool.
    const guarded = new DccApiExecutor("bench", {
      dispatcher: executor.dispatcher,
      pool: executor.pool,
      approval: {
        rules: ["delete", "overwrite", "open", "render"].map((name) => ({
          name,
          description: name,
          commands: [`${name}.command`],
        })),
      },
    });
    await guarded.execute(loop);
    // Interleaved (ABBA), so drift of the machine's load falls on both alike.
    const ruledGaps = [];
    const unruledGaps = [];
    for (let pair = 0; pair < 4; pair++) {
      const [first, second] = pair % 2 === 0 ? [guarded, executor] : [executor, guarded];
      for (const on of [first, second]) {
        const round = await dispatchRound(2, on);
        (on === guarded ? ruledGaps : unruledGaps).push(...round.gaps);
      }
    }
    const ruled = { p50: median(ruledGaps) };
    const unruled = { p50: median(unruledGaps) };
    rows.push({
      metric:
        "dispatch round trip, p50, four approval rules on, none covering it (baseline: no rules)",
      ours: ruled.p50,
      baseline: unruled.p50,
      unit: "µs",
      goal: "≤ 1.10× no rules",
      pass: ruled.p50 <= 1.1 * unruled.p50,
    });
    log(
      `dispatch p50 with approval rules on ${ruled.p50.toFixed(1)} µs vs ${unruled.p50.toFixed(1)} µs without (${elapsed()})`,
    );

    await threadRoundTrips(2000);
    const floor = await threadRoundTrips(7 * calls);
    const floorP50 = median(floor.gaps);
    const hostNoop = () => null;
    const vmDispatch = (name, args) =>
      JSON.parse(
        JSON.stringify({ ok: true, value: hostNoop(name, JSON.parse(JSON.stringify(args))) }),
      ).value;
    const vmLoop = await timeEach(7, () => vmExecute(loop, { dispatch: vmDispatch }));
    const vmEmpty = median(await timeEach(20, () => vmExecute("return 1")));
    const vmPerCall = ((median(vmLoop) - vmEmpty) / calls) * 1000;
    rows.push({
      metric: "dispatch round trip to a no-op command, p50 (baseline: node:vm, no thread)",
      ours: dispatched.p50,
      baseline: vmPerCall,
      unit: "µs",
      goal: "≤ 50 µs",
      pass: dispatched.p50 <= 50,
    });
    rows.push({
      metric:
        "dispatch round trip, p50 (baseline: a bare worker-thread round trip, the same message and answer, no QuickJS)",
      ours: dispatched.p50,
      baseline: floorP50,
      unit: "µs",
    });
    rows.push({
      metric: "dispatch CPU per call, both threads (baseline: the bare round trip's)",
      ours: dispatched.cpuPerCall,
      baseline: floor.cpuPerCall,
      unit: "µs",
      lowerIsBetter: true,
    });
    rows.push(tracedRow);
    log(
      `dispatch p50 ${dispatched.p50.toFixed(1)} µs (mean ${dispatched.mean.toFixed(1)}, CPU ${dispatched.cpuPerCall.toFixed(1)} µs per call) vs bare thread round trip p50 ${floorP50.toFixed(1)} µs (CPU ${floor.cpuPerCall.toFixed(1)}) vs node:vm ${vmPerCall.toFixed(2)} µs mean (${elapsed()})`,
    );

    // 3. RSS growth over many executions in a row (after warm-up above).
    const executions = 10_000;
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < executions; i++)
      await executor.execute(`return { i: ${i}, s: "x".repeat(100) }`);
    globalThis.gc?.();
    const rssGrowth = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    const vmRssBefore = process.memoryUsage().rss;
    for (let i = 0; i < executions; i++) await vmExecute(`return { i: ${i}, s: "x".repeat(100) }`);
    globalThis.gc?.();
    const vmRssGrowth = (process.memoryUsage().rss - vmRssBefore) / 2 ** 20;
    rows.push({
      metric: `RSS growth over ${executions} executions`,
      ours: rssGrowth,
      baseline: vmRssGrowth,
      unit: "MB",
      goal: "≤ 30 MB",
      pass: rssGrowth <= 30,
    });
    log(
      `RSS growth ${rssGrowth.toFixed(1)} MB vs node:vm ${vmRssGrowth.toFixed(1)} MB (${elapsed()})`,
    );
  } finally {
    await executor.close();
  }

  // 4. Another session's read while a script runs: compute only, then changing the scene.
  rows.push(...(await crossSessionReads(log, elapsed)));
  return rows;
}

/** A scene change as a DCC command takes it, in milliseconds. */
const changeMs = 20;

/** An in-memory DCC: `read` answers at once, `change` takes {@link changeMs}; undo per script. */
function sceneAdapter(scriptsAtOnce) {
  const items = [];
  return {
    dccName: "scene",
    scriptsAtOnce,
    commands: () => [
      { name: "read", readOnly: true, handler: () => items.length },
      {
        name: "change",
        handler: () => new Promise((resolve) => setTimeout(() => resolve(items.push(1)), changeMs)),
      },
    ],
    catalog: () => new DccApiCatalog("scene", { catalogText: "read - Count the items" }),
    beginTransaction: async () => {
      const before = items.length;
      return {
        commit: async () => ({ rolledBack: false, undoStep: "script" }),
        rollback: async () => {
          items.length = before;
          return { rolledBack: true };
        },
      };
    },
  };
}

/**
 * Median latency of session B's `return dispatch("read")`, idle and while session A runs
 * `script` until cancelled (each read is a whole script, sent after the last one answered).
 */
async function readLatency(executor, script, reads) {
  const controller = new AbortController();
  const running =
    script === undefined ? undefined : executor.execute(script, { signal: controller.signal });
  // Let A start (and, for a scene change, take the DCC) before B reads.
  if (running !== undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  const times = await timeEach(reads, async () => {
    const result = await executor.execute('return dispatch("read")');
    if (!result.success) throw new Error(`read failed: ${JSON.stringify(result)}`);
  });
  controller.abort();
  await running;
  return median(times);
}

async function crossSessionReads(log, elapsed) {
  const reads = 40;
  const rows = [];
  const executor = createAdapterExecutor(sceneAdapter(2));
  // Before: one script at a time per DCC (`scriptsAtOnce: 1`), as every DCC adapter ran.
  const serial = createAdapterExecutor(sceneAdapter(1));
  try {
    await executor.pool.warmUp();
    await serial.pool.warmUp();
    await timeEach(20, () => executor.execute('return dispatch("read")'));
    const idle = await readLatency(executor, undefined, reads);
    const computing = await readLatency(executor, "for (;;) {}", reads);
    const changing = await readLatency(executor, 'for (;;) dispatch("change")', reads);
    // The old way, for comparison: B waits for A's whole script (here a 300 ms computation).
    const serialTimes = [];
    for (let i = 0; i < 5; i++) {
      const a = serial.execute("const end = Date.now() + 300; while (Date.now() < end) {}");
      await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      await serial.execute('return dispatch("read")');
      serialTimes.push(performance.now() - started);
      await a;
    }
    const before = median(serialTimes).toFixed(0);
    rows.push({
      metric: "another session's read while a compute-only script runs, p50",
      ours: computing,
      baseline: idle,
      unit: "ms",
      goal: "no wait (≤ idle + 5 ms)",
      pass: computing <= idle + 5,
    });
    rows.push({
      metric: `another session's read while a script changes the scene (${changeMs} ms commands), p50`,
      ours: changing,
      baseline: idle,
      unit: "ms",
      goal: `≤ one command (idle + ${changeMs} ms)`,
      pass: changing <= idle + changeMs,
    });
    log(
      `cross-session read p50: idle ${idle.toFixed(2)} ms, beside a compute-only script ${computing.toFixed(2)} ms, beside a scene-changing script ${changing.toFixed(2)} ms (one script at a time, as before: ${before} ms) (${elapsed()})`,
    );
  } finally {
    await executor.close();
    await serial.close();
  }
  return rows;
}
