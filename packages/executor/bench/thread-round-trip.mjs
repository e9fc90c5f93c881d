// The floor under a sandbox `dispatch`: a worker thread posts a call message like the sandbox's to
// the main thread, which answers through shared memory (Atomics.store + notify) while the worker
// watches for 50 µs and then sleeps in Atomics.wait, as the sandbox does. No QuickJS, no command:
// what is left is the wake-up of the main thread's event loop and the message itself, which this
// machine's scheduler sets and no code in the executor can go below.
import { Worker } from "node:worker_threads";

const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const control = new Int32Array(workerData.control);
const gaps = [];
let last = performance.now();
for (let seq = 1; seq <= workerData.calls; seq++) {
  parentPort.postMessage({ type: "call", id: 1, seq, name: "noop", args: '{"i":1}' });
  const spinUntil = performance.now() + 0.05;
  while (Atomics.load(control, 0) !== seq && performance.now() < spinUntil) {}
  while (Atomics.load(control, 0) !== seq) Atomics.wait(control, 1, Atomics.load(control, 1), 50);
  const now = performance.now();
  gaps.push((now - last) * 1000);
  last = now;
}
parentPort.postMessage({ type: "done", gaps });
`;

/**
 * Runs `calls` bare round trips; resolves the gaps between consecutive answers in µs and the
 * process CPU per round trip in µs (both threads).
 */
export function threadRoundTrips(calls) {
  const control = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { control: control.buffer, calls },
  });
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (message) => {
      if (message.type === "call") {
        Atomics.store(control, 0, message.seq);
        Atomics.add(control, 1, 1);
        Atomics.notify(control, 1);
        return;
      }
      const { user, system } = process.cpuUsage(cpuBefore);
      void worker.terminate();
      resolve({ gaps: message.gaps, cpuPerCall: (user + system) / calls });
    });
  });
}
