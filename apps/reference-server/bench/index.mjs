// What the audit log and tracing cost on a dcc_execute round trip through the reference server
// (the simulated Maya), against the BUILT packages.
// Each variant (off, audit, tracing, both) is a server in a worker thread of its own, because
// OpenTelemetry's tracer provider is global to a thread; the client on the main thread takes the
// variants in turn, one call each, so the machine's drift touches them all alike. The script
// makes 10 host calls, so tracing writes a tool-call span, a script span and 10 dispatch spans,
// exported over OTLP (http/protobuf) to a sink on the main thread that reads and drops them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { median } from "../../../bench/support.mjs";

const variants = [
  { name: "off", audit: false, tracing: false },
  { name: "audit", audit: true, tracing: false },
  { name: "tracing", audit: false, tracing: true },
  { name: "audit + tracing", audit: true, tracing: true },
];
const WARM = 60;
const script = 'for (let i = 0; i < 10; i++) dispatch("ls", { type: "transform" }); return "done";';

if (!isMainThread && workerData?.operationsServer) await serverThread(workerData);

/**
 * The rows: each variant's dcc_execute round-trip p50 beside the `off` server's, measured in
 * the same run, call for call.
 * @param {{ log: (line: string) => void }} context
 */
export async function run({ log, remainingMs }) {
  // Timed calls per variant: 200 fit `pnpm bench`'s budget; 100 when little of it is left.
  const calls = remainingMs !== undefined && remainingMs < 30_000 ? 100 : 200;
  let spans = 0;
  const sink = createServer((request, response) => {
    request.on("data", () => {});
    request.on("end", () => {
      spans += 1;
      response.statusCode = 200;
      response.setHeader("content-type", "application/x-protobuf");
      response.end();
    });
  });
  await new Promise((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const sinkBase = `http://127.0.0.1:${sink.address().port}`;
  const folder = mkdtempSync(join(tmpdir(), "dcc-bench-audit-"));
  const servers = [];
  const clients = [];
  try {
    // The servers start side by side; each is its own thread.
    const started = await Promise.all(
      variants.map(async (variant) => {
        const worker = new Worker(new URL(import.meta.url), {
          workerData: {
            operationsServer: true,
            ...variant,
            auditFile: join(folder, `${variant.name.replace(/\W+/g, "-")}.jsonl`),
            sinkBase,
          },
        });
        servers.push({ variant, worker });
        const url = await new Promise((resolve, reject) => {
          worker.once("message", resolve);
          worker.once("error", reject);
        });
        return url;
      }),
    );
    for (const url of started) clients.push(await connect(url));
    const times = variants.map(() => []);
    for (const client of clients) for (let i = 0; i < WARM; i++) await execute(client);
    // One call to each server in turn, so the machine's drift touches every variant alike.
    for (let call = 0; call < calls; call++) {
      for (const [index, client] of clients.entries()) {
        const started = performance.now();
        await execute(client);
        times[index].push(performance.now() - started);
      }
    }
    const p50 = times.map((series) => median(series));
    const off = p50[0];
    log(
      `dcc_execute round trip p50: ${variants.map((v, i) => `${v.name} ${p50[i].toFixed(3)} ms`).join(", ")}`,
    );
    for (const client of clients) await client.close();
    clients.length = 0;
    await Promise.all(servers.map(({ worker }) => stop(worker)));
    const lines = auditLines(folder);
    log(`audit lines written: ${lines}; OTLP export requests received: ${spans}`);
    // Each measured variant did its work: a row about a switched-off feature would mislead.
    if (spans === 0) throw new Error("tracing was on but no span reached the OTLP sink");
    if (lines < 2 * (WARM + calls)) throw new Error(`only ${lines} audit lines`);
    return variants.slice(1).map((variant, index) => ({
      metric: `dcc_execute round trip (10 host calls) with ${variant.name === "audit" ? "the audit log (script text on)" : variant.name === "tracing" ? "tracing (OTLP http/protobuf, batched)" : "the audit log and tracing"}, p50 (baseline: both off, same run)`,
      ours: p50[index + 1],
      baseline: off,
      unit: "ms",
      lowerIsBetter: true,
    }));
  } finally {
    for (const client of clients) await client.close().catch(() => {});
    for (const { worker } of servers) await worker.terminate();
    sink.closeAllConnections();
    await new Promise((resolve) => sink.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Lines in every audit file of `folder` (rotation numbers them). */
function auditLines(folder) {
  let lines = 0;
  for (const name of readdirSync(folder)) {
    lines += readFileSync(join(folder, name), "utf8").split("\n").filter(Boolean).length;
  }
  return lines;
}

async function connect(url) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function execute(client) {
  const result = await client.callTool({ name: "dcc_execute", arguments: { code: script } });
  if (result.isError) throw new Error(`the bench script failed: ${JSON.stringify(result)}`);
}

function stop(worker) {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.postMessage("close");
  });
}

async function serverThread({ audit, tracing, auditFile, sinkBase }) {
  const { createReferenceServer } = await import("../dist/index.js");
  let provider;
  if (tracing) {
    // As a deployment asks for traces: the standard variables, read by the SDK and exporters.
    process.env["OTEL_EXPORTER_OTLP_ENDPOINT"] = sinkBase;
    process.env["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf";
    process.env["OTEL_SERVICE_NAME"] = "dcc-bench";
    const { startTracing } = await import("@dcc/farm");
    provider = await startTracing({ serviceName: "dcc-bench" });
    if (provider === undefined) throw new Error("startTracing did not register a provider");
  }
  // The app's own composition: the simulated Maya, and the audit log as --audit-log sets it up.
  const server = await createReferenceServer({
    port: 0,
    ...(audit ? { audit: { file: auditFile } } : {}),
  });
  parentPort.once("message", async () => {
    await server.close();
    await provider?.shutdown();
    parentPort.postMessage({});
  });
  parentPort.postMessage(server.url);
}
