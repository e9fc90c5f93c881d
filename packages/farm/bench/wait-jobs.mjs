// Throughput of jobs that wait on their DCC (the usual farm case) for 1, 2 and 4 workers of the
// stand-in DCC in wait-worker.mjs, and the CPU each process spends per job, read from /proc
// (front end: this process, which submits and reads the jobs; Redis; the workers together). The
// wall-clock rates are noisy on a shared machine; the CPU per job is what says where the cap is:
// the farm can do no more than (cores × 1000 / CPU ms per job) jobs a second, whatever the wait.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const clockTicksMs = 10;

/** CPU time of a process, all its threads, in ms (utime + stime of /proc/<pid>/stat). */
function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * clockTicksMs;
}

function selfCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function startWaitWorker(url, pool) {
  const child = spawn(process.execPath, [join(here, "wait-worker.mjs"), url, pool], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error("wait-worker did not start in 60 s")), 60_000);
    child.stderr.on("data", (chunk) => {
      output += chunk.toString();
      if (output.includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`wait-worker exited (${code}): ${output}`)));
  });
  return child;
}

/**
 * Submits `count` jobs that each wait `waitMs` on the DCC and waits for all of them to finish,
 * watching the pool's counts (one round trip per 5 ms, so watching costs the farm little), then
 * checks every job's record. Returns jobs per second and CPU ms per job per process.
 */
async function batch(queue, pool, count, waitMs, pids) {
  const finished = async () => {
    const counts = (await queue.counts())[pool];
    return counts.completed + counts.failed;
  };
  const before = await finished();
  const cpuBefore = { front: selfCpuMs(), redis: processCpuMs(pids.redis) };
  const workersBefore = pids.workers.map(processCpuMs);
  const started = performance.now();
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  // Submitted 16 at a time, as many clients would: one at a time, the front end's round trips
  // would pace 4 workers.
  for (let start = 0; start < count; start += 16) {
    await Promise.all(
      ids
        .slice(start, start + 16)
        .map((jobId) =>
          queue.submit({ jobId, dccName: pool, code: `return dispatch("wait", ${waitMs});` }),
        ),
    );
  }
  const deadline = Date.now() + 120_000;
  while ((await finished()) - before < count) {
    if (Date.now() > deadline) throw new Error("wait jobs did not finish within 120 s");
    await sleep(5);
  }
  const seconds = (performance.now() - started) / 1000;
  const front = selfCpuMs() - cpuBefore.front;
  const redis = processCpuMs(pids.redis) - cpuBefore.redis;
  const workers = pids.workers.reduce(
    (sum, pid, index) => sum + processCpuMs(pid) - workersBefore[index],
    0,
  );
  const onWorker = [];
  for (const id of ids) {
    const record = await queue.get(id);
    if (record?.status !== "completed" || record.result?.output !== waitMs) {
      throw new Error(`wait job ended ${record?.status}: ${JSON.stringify(record?.result)}`);
    }
    onWorker.push(record.finishedAt - record.startedAt);
  }
  onWorker.sort((a, b) => a - b);
  return {
    rate: count / seconds,
    // From a worker taking the job to its result stored: the wait plus the worker's own time.
    onWorkerMs: onWorker[onWorker.length >> 1],
    cpu: { front: front / count, redis: redis / count, workers: workers / count },
  };
}

/**
 * Rows for jobs waiting `waitMs` on 1, 2 and 4 workers: rate beside the linear figure (N × the
 * 1-worker rate of this run), the ideal (N × 1000 / waitMs), and CPU ms per job per process.
 */
export async function waitJobRows({ createFarmJobQueue, url, redisPid, log, waitMs = 25 }) {
  const pool = "wait";
  const queue = createFarmJobQueue({ redis: { url }, pools: [pool] });
  const workers = [];
  const rows = [];
  try {
    let one;
    let lastTotal = 0;
    for (const size of [1, 2, 4]) {
      while (workers.length < size) workers.push(await startWaitWorker(url, pool));
      const pids = { redis: redisPid, workers: workers.map((worker) => worker.pid) };
      await batch(queue, pool, 4 * size, waitMs, pids);
      // Each worker gets about 1.6 s of waiting: long enough to average, short enough for the budget.
      const measured = await batch(queue, pool, 64 * size, waitMs, pids);
      one ??= measured.rate;
      const { front, redis, workers: workerCpu } = measured.cpu;
      const total = front + redis + workerCpu;
      lastTotal = total;
      const ideal = (size * 1000) / waitMs;
      log(
        `${size} worker(s), ${waitMs} ms waits: ${measured.rate.toFixed(1)} jobs/s, ${measured.onWorkerMs} ms on the worker per job p50 (linear ${(size * one).toFixed(1)}, ideal ${ideal.toFixed(0)}); CPU ms per job: front end ${front.toFixed(2)}, Redis ${redis.toFixed(2)}, workers ${workerCpu.toFixed(2)}, total ${total.toFixed(2)} (cap on ${availableParallelism()} cores ${((availableParallelism() * 1000) / total).toFixed(0)} jobs/s)`,
      );
      rows.push({
        metric: `jobs waiting ${waitMs} ms on the DCC, ${size} worker${size === 1 ? "" : "s"} vs linear (${size} × the 1-worker rate; ideal ${ideal.toFixed(0)})`,
        ours: measured.rate,
        baseline: size * one,
        unit: "jobs/s",
        ...(size === 1 ? {} : { goal: "≥ 0.8× linear", pass: measured.rate >= 0.8 * size * one }),
      });
      rows.push({
        metric: `time on the worker per waiting job, p50, ${size} worker${size === 1 ? "" : "s"} (taken to result stored; baseline: the wait)`,
        ours: measured.onWorkerMs,
        baseline: waitMs,
        unit: "ms",
        lowerIsBetter: true,
      });
      rows.push({
        metric: `CPU per waiting job, ${size} worker${size === 1 ? "" : "s"}: workers + Redis + front end (${workerCpu.toFixed(2)} + ${redis.toFixed(2)} + ${front.toFixed(2)})`,
        ours: total,
        unit: "ms",
        lowerIsBetter: true,
      });
    }
    const cores = availableParallelism();
    rows.push({
      metric: `CPU cap on ${cores} cores: ${cores} × 1000 / CPU ms per job at 4 workers (wall rates below it are latency; at it, more workers add nothing)`,
      ours: (cores * 1000) / lastTotal,
      unit: "jobs/s",
    });
  } finally {
    await queue.close();
    for (const worker of workers) worker.kill("SIGTERM");
    await Promise.all(
      workers.map((worker) =>
        worker.exitCode === null ? new Promise((resolve) => worker.once("exit", resolve)) : null,
      ),
    );
  }
  return rows;
}
