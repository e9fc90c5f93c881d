// Farm benchmark, against the BUILT packages: a throwaway redis-server and real dcc-farm-worker
// processes. Rows: enqueue-to-start p50, cancel-to-stopped p50/p99 across processes (a spinning
// script), short-job throughput with 1 and 4 workers beside the in-process job store (a
// JobManager running the same script in this process), and jobs that wait on their DCC for 1, 2
// and 4 workers with the CPU each process spends per job (wait-jobs.mjs), measured in the same
// run. Skipped, with a row saying so, when redis-server is missing.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitJobRows } from "./wait-jobs.mjs";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function freePort() {
  return await new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function waitFor(stream, text, ms) {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}`)), ms);
    stream.on("data", (chunk) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

async function startWorker(url) {
  const child = spawn(process.execPath, ["dist/cli.js", "--dcc", "maya", "--redis", url], {
    cwd: packageDir,
    stdio: ["ignore", "ignore", "pipe"],
  });
  await waitFor(child.stderr, "ready, pool", 60_000);
  return child;
}

async function until(read, done, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(2);
  }
}

const terminal = (record) => ["completed", "failed", "cancelled"].includes(record?.status);

/** Jobs per second for `jobs` short jobs, watching the pool's counts rather than each job. */
async function throughput(queue, jobs) {
  const finished = async () => {
    const { maya } = await queue.counts();
    return maya.completed + maya.failed;
  };
  const before = await finished();
  const started = performance.now();
  const ids = Array.from({ length: jobs }, () => crypto.randomUUID());
  // 16 at a time, as many clients would: one at a time, the front end's round trips set the pace.
  for (let start = 0; start < jobs; start += 16) {
    await Promise.all(
      ids
        .slice(start, start + 16)
        .map((jobId, i) => queue.submit({ jobId, dccName: "maya", code: `return ${start + i};` })),
    );
  }
  await until(finished, (done) => done - before >= jobs, 60_000);
  const rate = jobs / ((performance.now() - started) / 1000);
  for (const id of ids) {
    const record = await queue.get(id);
    if (record?.status !== "completed") throw new Error(`short job ended ${record?.status}`);
  }
  return rate;
}

/** Runs the farm benchmark and returns its rows. */
export async function run({ log }) {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
  } catch {
    return [
      { metric: "(skipped: redis-server missing; apt-get install -y redis-server)", unit: "" },
    ];
  }
  const { createFarmJobQueue } = await import("@dcc/farm");
  const { JobManager } = await import("@dcc/mcp-bridge");
  const { createAdapterExecutor } = await import("@dcc/executor");
  const { createMayaAdapter } = await import("@dcc/maya");

  const dir = mkdtempSync(join(tmpdir(), "dcc-farm-bench-"));
  const port = await freePort();
  const redis = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const workers = [];
  const url = `redis://127.0.0.1:${port}`;
  const queue = createFarmJobQueue({ redis: { url }, pools: ["maya"] });
  try {
    await waitFor(redis.stdout, "Ready to accept connections", 30_000);
    workers.push(await startWorker(url));
    // Warm up the worker's sandbox pool.
    await throughput(queue, 5);

    const starts = [];
    for (let i = 0; i < 20; i++) {
      const jobId = crypto.randomUUID();
      const submitted = Date.now();
      await queue.submit({ jobId, dccName: "maya", code: "return 1;" });
      const record = await until(
        () => queue.get(jobId),
        (r) => r?.startedAt !== undefined,
      );
      starts.push(record.startedAt - submitted);
      await until(() => queue.get(jobId), terminal);
    }

    const stops = [];
    for (let i = 0; i < 12; i++) {
      const jobId = crypto.randomUUID();
      await queue.submit({ jobId, dccName: "maya", code: "for (;;) {}", timeoutSecs: 60 });
      await until(
        () => queue.get(jobId),
        (r) => r?.status === "running",
      );
      const asked = performance.now();
      await queue.cancel(jobId, { reason: "bench", waitMs: 5000 });
      const record = await until(() => queue.get(jobId), terminal);
      if (record?.status !== "cancelled") throw new Error(`job ended ${record?.status}`);
      stops.push(performance.now() - asked);
    }
    log(`cancel-to-stopped samples: ${stops.map((ms) => ms.toFixed(0)).join(", ")} ms`);

    const one = await throughput(queue, 60);
    for (let i = 0; i < 3; i++) workers.push(await startWorker(url));
    await throughput(queue, 8);
    const four = await throughput(queue, 60);

    // Baseline: the in-process store, the same script in this process's sandbox.
    const adapter = createMayaAdapter();
    const executor = createAdapterExecutor(adapter);
    const jobs = new JobManager({ maxRunningJobs: 64 });
    const inProcess = async (count) => {
      const started = performance.now();
      const ids = [];
      for (let i = 0; i < count; i++) {
        const record = jobs.startJob({ dccName: "maya" }, () => executor.execute(`return ${i};`));
        ids.push(record.jobId);
      }
      for (const id of ids) await until(async () => jobs.get(id), terminal);
      return count / ((performance.now() - started) / 1000);
    };
    await inProcess(5);
    const local = await inProcess(60);
    await executor.close();
    for (const worker of workers.splice(0)) worker.kill("SIGTERM");

    const waitRows = await waitJobRows({
      createFarmJobQueue,
      url,
      redisPid: redis.pid,
      log,
    });

    return [
      {
        metric: "enqueue-to-start p50 (1 worker)",
        ours: quantile(starts, 0.5),
        unit: "ms",
        lowerIsBetter: true,
      },
      {
        metric: "cancel-to-stopped p50 (spinning script, other process)",
        ours: quantile(stops, 0.5),
        unit: "ms",
        lowerIsBetter: true,
      },
      {
        metric: "cancel-to-stopped p99 (spinning script, other process)",
        ours: quantile(stops, 0.99),
        unit: "ms",
        goal: "< 1000",
        pass: quantile(stops, 0.99) < 1000,
        lowerIsBetter: true,
      },
      {
        metric: "short jobs, 1 worker vs in-process store",
        ours: one,
        baseline: local,
        unit: "jobs/s",
      },
      {
        metric: "short jobs, 4 workers vs in-process store",
        ours: four,
        baseline: local,
        unit: "jobs/s",
      },
      ...waitRows,
    ];
  } finally {
    await queue.close();
    for (const worker of workers) worker.kill("SIGTERM");
    await Promise.all(
      workers.map((worker) =>
        worker.exitCode === null ? new Promise((r) => worker.once("exit", r)) : null,
      ),
    );
    redis.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}
