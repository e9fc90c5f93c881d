// Sees every worker thread the process starts, so tests can count the sandbox pool's threads and
// kill one from outside. The executor imports `Worker` from node:worker_threads; replacing the
// export and syncing the ESM view makes its `new Worker(...)` construct a tracked subclass.
import { createRequire, syncBuiltinESMExports } from "node:module";
import type { Worker as NodeWorker } from "node:worker_threads";

const require = createRequire(import.meta.url);
const workerThreads = require("node:worker_threads") as typeof import("node:worker_threads");

/** The live worker threads started while tracking was on. */
export interface WorkerTracker {
  /** Workers that have not exited yet. */
  live(): NodeWorker[];
  /** Puts the original `Worker` back. */
  restore(): void;
}

let active: WorkerTracker | undefined;

/** Starts tracking (idempotent while active). */
export function trackWorkers(): WorkerTracker {
  if (active !== undefined) return active;
  const Original = workerThreads.Worker;
  const live = new Set<NodeWorker>();
  class TrackedWorker extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      live.add(this);
      this.once("exit", () => live.delete(this));
    }
  }
  workerThreads.Worker = TrackedWorker;
  syncBuiltinESMExports();
  const tracker: WorkerTracker = {
    live: () => [...live],
    restore() {
      workerThreads.Worker = Original;
      syncBuiltinESMExports();
      active = undefined;
    },
  };
  active = tracker;
  return tracker;
}

/**
 * The worker that is busiest right now (highest event-loop utilization over `sampleMs`): the one
 * running a spinning script.
 */
export async function busiestWorker(
  workers: readonly NodeWorker[],
  sampleMs = 80,
): Promise<NodeWorker | undefined> {
  const before = workers.map((worker) => worker.performance.eventLoopUtilization());
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  let best: NodeWorker | undefined;
  let bestUtilization = -1;
  workers.forEach((worker, index) => {
    const utilization = worker.performance.eventLoopUtilization(before[index]).utilization;
    if (utilization > bestUtilization) {
      bestUtilization = utilization;
      best = worker;
    }
  });
  return best;
}
