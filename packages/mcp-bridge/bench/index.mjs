// Benchmark for @dcc/mcp-bridge, against the BUILT packages. The server (with a real executor)
// runs on the main thread and the MCP clients on a worker thread, as separate event loops the way
// a real client and server are. Once per protocol revision (the SDK v1 client on a 2025-11-25
// session, the SDK v2 client pinned to 2026-07-28): the dcc_search round trip over Streamable
// HTTP on loopback beside a bare HTTP POST echo measured by the same worker, and cancel-to-stop
// latency (the call's signal aborted → execute() returned, and client abort → execute()
// returned) beside aborting the same script in-process. On 2025-11-25 also: throughput with 8
// concurrent sessions beside one session, and a dcc_search and a dcc_execute sent the moment the
// client aborts a spinning script, beside the same calls at rest.
import { createServer } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { median } from "../../../bench/support.mjs";

/** Untimed calls before each timed series, and timed calls per series. */
const WARM = 1000;
const TIMED = 1000;

/** Milliseconds on a clock both threads share. */
const now = () => performance.timeOrigin + performance.now();

if (!isMainThread) await clientThread(workerData);

/** @param {{ root: string, log: (line: string) => void }} context */
export async function run({ log }) {
  const { DccApiCatalog } = await import("@dcc/catalog");
  const { DccApiExecutor, ToolDispatcher, ToolRegistry } = await import("@dcc/executor");
  const { createMcpHttpServer } = await import("@dcc/mcp-bridge");

  const ticks = new Int32Array(new SharedArrayBuffer(4));
  const registry = new ToolRegistry();
  for (let index = 0; index < 200; index++) {
    registry.register({
      name: `command${index}`,
      description: `Create polygon mesh number ${index} with flags`,
      signature: `command${index}(flags?: { name?: string; radius?: number }): string[]`,
      handler: () => index,
    });
  }
  registry.register({
    name: "tick",
    description: "Count",
    handler: () => Atomics.add(ticks, 0, 1) + 1,
  });
  const catalog = new DccApiCatalog("maya", { commands: registry.catalogRecords() });
  const real = new DccApiExecutor("maya", { catalog, dispatcher: new ToolDispatcher(registry) });
  const stops = [];
  const executor = {
    dccName: "maya",
    search: (query, options) => real.search(query, options ?? {}),
    async execute(code, options) {
      // The bridge aborts this signal once it has processed notifications/cancelled.
      let abortedAt;
      options?.signal?.addEventListener("abort", () => (abortedAt = now()), { once: true });
      const result = await real.execute(code, options ?? {});
      stops.push({ at: now(), abortedAt, errorCode: result.errorCode });
      return result;
    },
  };
  const echo = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.end(Buffer.concat(chunks));
    });
  });
  await new Promise((resolve) => echo.listen(0, "127.0.0.1", resolve));
  const server = createMcpHttpServer({ port: 0, executors: [executor] });
  const { url, close } = await server.start();
  const rows = [];
  try {
    const direct = await inProcessCancel(real, ticks, 15);
    for (const revision of ["2025-11-25", "2026-07-28"]) {
      stops.length = 0;
      const full = revision === "2025-11-25";
      const worker = new Worker(new URL(import.meta.url), {
        workerData: {
          url,
          echoUrl: `http://127.0.0.1:${echo.address().port}/`,
          ticks,
          revision,
          full,
        },
      });
      const figures = await new Promise((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      await worker.terminate();
      rows.push(...revisionRows(revision, full, figures, stops, direct, log));
    }
  } finally {
    await close();
    echo.closeAllConnections();
    await new Promise((resolve) => echo.close(resolve));
    await real.close();
  }
  return rows;
}

/** The rows of one revision's run. */
function revisionRows(revision, full, figures, stops, direct, log) {
  const rows = [];
  const on = `on ${revision}`;
  log(
    `${on}: dcc_search round trip p50 ${figures.searchP50.toFixed(3)} ms (bare POST echo ${figures.echoP50.toFixed(3)} ms)`,
  );
  rows.push({
    metric: `dcc_search round trip over HTTP ${on}, p50 (baseline: bare POST echo)`,
    ours: figures.searchP50,
    baseline: figures.echoP50,
    unit: "ms",
    goal: "≤ 2 ms",
    pass: figures.searchP50 <= 2,
    lowerIsBetter: true,
  });
  if (figures.rawSearchP50 !== undefined) {
    log(`${on}: dcc_search as a plain fetch p50 ${figures.rawSearchP50.toFixed(3)} ms`);
    rows.push({
      metric: `dcc_search round trip ${on} as a plain fetch, no SDK client, p50 (baseline: bare POST echo)`,
      ours: figures.rawSearchP50,
      baseline: figures.echoP50,
      unit: "ms",
      goal: "report",
      lowerIsBetter: true,
    });
  }
  if (full) {
    log(
      `${on}: dcc_search throughput: 8 sessions ${figures.eight.toFixed(0)}/s, 1 session ${figures.single.toFixed(0)}/s`,
    );
    rows.push({
      metric: `dcc_search throughput ${on}, 8 concurrent sessions (baseline: 1 session)`,
      ours: figures.eight,
      baseline: figures.single,
      unit: "calls/s",
      goal: "report",
      lowerIsBetter: false,
    });
  }

  // Match each cancel round to the execute() that stopped after it.
  const serverSide = [];
  const endToEnd = [];
  for (const sentAt of figures.abortsSentAt) {
    const stop = stops.find((entry) => entry.abortedAt !== undefined && entry.abortedAt >= sentAt);
    if (stop === undefined || stop.errorCode !== "CANCELLED")
      throw new Error(`a cancelled script did not stop as cancelled ${on}`);
    serverSide.push(stop.at - stop.abortedAt);
    endToEnd.push(stop.at - sentAt);
  }
  log(`${on}: server-side samples: ${serverSide.map((v) => v.toFixed(1)).join(" ")}`);
  const cancelServer = median(serverSide);
  const cancelEnd = median(endToEnd);
  log(
    `${on}: cancel to stop: signal aborted → stopped ${cancelServer.toFixed(2)} ms, client abort → stopped ${cancelEnd.toFixed(2)} ms, in-process abort ${direct.toFixed(2)} ms`,
  );
  // 2025-11-25 aborts the call's signal on notifications/cancelled, 2026-07-28 when the client
  // closes the request's response stream.
  const trigger = full ? "notifications/cancelled processed" : "response stream closed";
  rows.push({
    metric: `cancel-to-stop ${on}: ${trigger} → script stopped, p50 (baseline: in-process abort)`,
    ours: cancelServer,
    baseline: direct,
    unit: "ms",
    goal: "≤ 20 ms",
    pass: cancelServer <= 20,
    lowerIsBetter: true,
  });
  rows.push({
    metric: `cancel-to-stop end to end ${on}: client abort → script stopped, p50 (baseline: in-process abort)`,
    ours: cancelEnd,
    baseline: direct,
    unit: "ms",
    goal: "≤ 20 ms",
    pass: cancelEnd <= 20,
    lowerIsBetter: true,
  });
  if (full) {
    log(
      `${on}: right after a cancel: dcc_search p50 ${figures.searchAfterCancelP50.toFixed(2)} ms (at rest ${figures.searchAtRestP50.toFixed(2)} ms), dcc_execute \`return 1\` p50 ${figures.executeAfterCancelP50.toFixed(2)} ms (at rest ${figures.executeAtRestP50.toFixed(2)} ms)`,
    );
    rows.push({
      metric: `dcc_search sent right after a client cancels a spinning script ${on}, p50 (baseline: the same call at rest)`,
      ours: figures.searchAfterCancelP50,
      baseline: figures.searchAtRestP50,
      unit: "ms",
      goal: "report",
      lowerIsBetter: true,
    });
    rows.push({
      metric: `dcc_execute \`return 1\` sent right after a client cancels a spinning script ${on}, p50 (baseline: the same call at rest)`,
      ours: figures.executeAfterCancelP50,
      baseline: figures.executeAtRestP50,
      unit: "ms",
      goal: "report",
      lowerIsBetter: true,
    });
  }
  return rows;
}

async function inProcessCancel(real, ticks, rounds) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const abort = new AbortController();
    const before = Atomics.load(ticks, 0);
    const running = real.execute("dispatch('tick', {}); let n = 0; for (;;) { n++; }", {
      signal: abort.signal,
    });
    while (Atomics.load(ticks, 0) === before)
      await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const sentAt = performance.now();
    abort.abort();
    await running;
    times.push(performance.now() - sentAt);
  }
  return median(times);
}

async function clientThread({ url, echoUrl, ticks, revision, full }) {
  const legacy = revision === "2025-11-25";
  const sdk = legacy
    ? {
        ...(await import("@modelcontextprotocol/sdk/client/index.js")),
        ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")),
      }
    : await import("@modelcontextprotocol/client");
  const connect = async () => {
    const client = legacy
      ? new sdk.Client({ name: "bench", version: "1.0.0" })
      : new sdk.Client(
          { name: "bench", version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
    await client.connect(new sdk.StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
  // The v1 client takes a result schema before the options; the v2 client does not.
  const callTool = (client, params, options) =>
    legacy ? client.callTool(params, undefined, options) : client.callTool(params, options);
  const search = (client) =>
    callTool(client, { name: "dcc_search", arguments: { query: "polygon mesh", limit: 5 } });
  const client = await connect();

  // Steady state, as a long-lived client and server are: the first calls run before the JIT has
  // compiled the SDK's and the server's hot paths, so each series first runs WARM untimed calls.
  for (let index = 0; index < WARM; index++) await search(client);
  const searchTimes = [];
  for (let index = 0; index < TIMED; index++) {
    const started = performance.now();
    await search(client);
    searchTimes.push(performance.now() - started);
  }
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "dcc_search", arguments: { query: "polygon mesh" } },
  });
  const echoTimes = [];
  for (let index = 0; index < WARM + TIMED; index++) {
    const started = performance.now();
    const response = await fetch(echoUrl, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    await response.text();
    if (index >= WARM) echoTimes.push(performance.now() - started);
  }

  // The same search as one plain fetch of a 2026-07-28 request (no SDK client): the server's
  // share of the round trip.
  const rawTimes = [];
  if (!legacy) {
    const raw = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "dcc_search",
        arguments: { query: "polygon mesh", limit: 5 },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "dcc_search",
    };
    for (let index = 0; index < WARM + TIMED; index++) {
      const started = performance.now();
      const response = await fetch(url, { method: "POST", body: raw, headers });
      await response.text();
      if (index >= WARM) rawTimes.push(performance.now() - started);
    }
  }

  const throughput = async (clients, ms) => {
    let calls = 0;
    const deadline = performance.now() + ms;
    await Promise.all(
      clients.map(async (each) => {
        while (performance.now() < deadline) {
          await search(each);
          calls += 1;
        }
      }),
    );
    return (calls * 1000) / ms;
  };
  const clients = [client];
  let single = 0;
  let eight = 0;
  if (full) {
    single = await throughput([client], 2000);
    for (let index = 1; index < 8; index++) clients.push(await connect());
    eight = await throughput(clients, 3000);
  }

  const execute = (code, options) =>
    callTool(client, { name: "dcc_execute", arguments: { code } }, options);
  /** Starts a spinning script; resolves with its abort `spinMs` after it runs (its first dispatch). */
  const spinning = async (spinMs = 5) => {
    const abort = new AbortController();
    const before = Atomics.load(ticks, 0);
    execute("dispatch('tick', {}); let n = 0; for (;;) { n++; }", { signal: abort.signal }).catch(
      () => {},
    );
    const deadline = Date.now() + 10_000;
    while (Atomics.load(ticks, 0) === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, spinMs));
    return abort;
  };
  const abortsSentAt = [];
  for (let round = 0; round < 15; round++) {
    const abort = await spinning();
    abortsSentAt.push(now());
    abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // The call right after a cancel, sent the moment the client aborts a script that spun for
  // 150 ms: a search in even rounds, an execute in odd ones, so each is the first call after its
  // cancel. Its baseline is the same call at rest in the same round, just before the script.
  const timed = async (call) => {
    const started = performance.now();
    await call();
    return performance.now() - started;
  };
  const calls = [() => search(client), () => execute("return 1")];
  const atRest = [[], []];
  const afterCancel = [[], []];
  for (let round = 0; full && round < 30; round++) {
    const kind = round % 2;
    atRest[kind].push(await timed(calls[kind]));
    const abort = await spinning(150);
    abort.abort();
    afterCancel[kind].push(await timed(calls[kind]));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await Promise.all(clients.map((each) => each.close()));
  parentPort.postMessage({
    searchP50: median(searchTimes),
    echoP50: median(echoTimes),
    rawSearchP50: rawTimes.length === 0 ? undefined : median(rawTimes),
    single,
    eight,
    abortsSentAt,
    searchAtRestP50: median(atRest[0]),
    searchAfterCancelP50: median(afterCancel[0]),
    executeAtRestP50: median(atRest[1]),
    executeAfterCancelP50: median(afterCancel[1]),
  });
}
