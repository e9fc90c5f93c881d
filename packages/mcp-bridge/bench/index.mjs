// Benchmark for @dcc/mcp-bridge, against the BUILT packages: the dcc_search round trip over
// Streamable HTTP on loopback beside a bare HTTP POST echo, throughput with 8 concurrent sessions
// beside one session, and cancel-to-stop latency (notifications/cancelled sent → the executor's
// execute() has returned) beside cancelling the same script in-process.
import { createServer } from "node:http";
import { DccApiCatalog } from "@dcc/catalog";
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { createMcpHttpServer } from "@dcc/mcp-bridge";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function makeExecutor() {
  const registry = new ToolRegistry();
  for (let index = 0; index < 200; index++) {
    registry.register({
      name: `command${index}`,
      description: `Create polygon mesh number ${index} with flags`,
      signature: `command${index}(flags?: { name?: string; radius?: number }): string[]`,
      handler: () => index,
    });
  }
  const host = { ticks: 0 };
  registry.register({ name: "tick", description: "Count", handler: () => ++host.ticks });
  const catalog = new DccApiCatalog("maya", { commands: registry.catalogRecords() });
  const real = new DccApiExecutor("maya", { catalog, dispatcher: new ToolDispatcher(registry) });
  // Records when each execute() returns, to time cancel-to-stop on the same clock.
  const stops = [];
  const executor = {
    dccName: "maya",
    search: (query, options) => real.search(query, options ?? {}),
    async execute(code, options) {
      // The bridge aborts this signal when it has processed notifications/cancelled.
      let abortedAt;
      options?.signal?.addEventListener("abort", () => (abortedAt = performance.now()), {
        once: true,
      });
      const result = await real.execute(code, options ?? {});
      stops.push({ at: performance.now(), abortedAt, result });
      return result;
    },
  };
  return { real, executor, stops, host };
}

async function connect(url) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function echoBaseline(samples) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.end(Buffer.concat(chunks));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "dcc_search", arguments: { query: "polygon mesh" } },
  });
  const times = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    await response.text();
    times.push(performance.now() - started);
  }
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return median(times.slice(Math.floor(samples / 5)));
}

async function throughput(clients, ms) {
  let calls = 0;
  const deadline = performance.now() + ms;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        await client.callTool({
          name: "dcc_search",
          arguments: { query: "polygon mesh", limit: 5 },
        });
        calls += 1;
      }
    }),
  );
  return (calls * 1000) / ms;
}

async function cancelToStop(client, stops, host, rounds) {
  const times = [];
  const serverSide = [];
  for (let round = 0; round < rounds; round++) {
    const abort = new AbortController();
    const before = stops.length;
    const call = client.callTool(
      {
        name: "dcc_execute",
        arguments: { code: "dispatch('tick', {}); let n = 0; for (;;) { n++; }" },
      },
      undefined,
      { signal: abort.signal },
    );
    call.catch(() => {});
    // Abort only once the script runs (its first dispatch landed) and spins.
    const ticks = host.ticks;
    while (host.ticks === ticks) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const sentAt = performance.now();
    abort.abort();
    const deadline = Date.now() + 5000;
    while (stops.length === before && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    const stop = stops[before];
    if (stop === undefined || stop.result.errorCode !== "CANCELLED") {
      throw new Error(`the script did not stop as cancelled: ${JSON.stringify(stop?.result)}`);
    }
    times.push(stop.at - sentAt);
    serverSide.push(stop.at - stop.abortedAt);
  }
  return { endToEnd: median(times), serverSide: median(serverSide) };
}

async function inProcessCancel(real, rounds) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const abort = new AbortController();
    const run = real.execute("let n = 0; for (;;) { n++; }", { signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const sentAt = performance.now();
    abort.abort();
    await run;
    times.push(performance.now() - sentAt);
  }
  return median(times);
}

/** @param {{ root: string, log: (line: string) => void }} context */
export async function run({ log }) {
  const { real, executor, stops, host } = makeExecutor();
  const server = createMcpHttpServer({ port: 0, executors: [executor] });
  const { url, close } = await server.start();
  const rows = [];
  try {
    const client = await connect(url);
    const search = async () => {
      const started = performance.now();
      await client.callTool({ name: "dcc_search", arguments: { query: "polygon mesh", limit: 5 } });
      return performance.now() - started;
    };
    for (let index = 0; index < 100; index++) await search();
    const searchTimes = [];
    for (let index = 0; index < 500; index++) searchTimes.push(await search());
    const searchP50 = median(searchTimes);
    const echoP50 = await echoBaseline(600);
    log(
      `dcc_search round trip p50 ${searchP50.toFixed(3)} ms (bare POST echo ${echoP50.toFixed(3)} ms)`,
    );
    rows.push({
      metric: "dcc_search round trip over HTTP, p50",
      ours: searchP50,
      baseline: echoP50,
      unit: "ms",
      goal: "≤ 2 ms",
      pass: searchP50 <= 2,
      lowerIsBetter: true,
    });

    const single = await throughput([client], 2000);
    const clients = [client];
    for (let index = 1; index < 8; index++) clients.push(await connect(url));
    const eight = await throughput(clients, 3000);
    log(
      `dcc_search throughput: 8 sessions ${eight.toFixed(0)}/s, 1 session ${single.toFixed(0)}/s`,
    );
    rows.push({
      metric: "dcc_search throughput, 8 concurrent sessions (baseline: 1 session)",
      ours: eight,
      baseline: single,
      unit: "calls/s",
      goal: "report",
      lowerIsBetter: false,
    });

    const cancel = await cancelToStop(client, stops, host, 15);
    const cancelDirect = await inProcessCancel(real, 15);
    log(
      `cancel to stop: client abort → stopped ${cancel.endToEnd.toFixed(2)} ms, notification processed → stopped ${cancel.serverSide.toFixed(2)} ms, in-process abort ${cancelDirect.toFixed(2)} ms`,
    );
    rows.push({
      metric:
        "cancel-to-stop: notifications/cancelled received → script stopped, p50 (baseline: in-process abort)",
      ours: cancel.serverSide,
      baseline: cancelDirect,
      unit: "ms",
      goal: "≤ 20 ms",
      pass: cancel.serverSide <= 20,
      lowerIsBetter: true,
    });
    rows.push({
      metric:
        "cancel-to-stop end to end: client abort → script stopped, p50 (baseline: in-process abort)",
      ours: cancel.endToEnd,
      baseline: cancelDirect,
      unit: "ms",
      goal: "report",
      lowerIsBetter: true,
    });
    await Promise.all(clients.map((each) => each.close()));
  } finally {
    await close();
    await real.close();
  }
  return rows;
}
