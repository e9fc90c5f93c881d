import { Gauge, type Registry } from "prom-client";
import { type FarmJobQueue, type FarmJobState, farmJobStates } from "./farm-job-queue.ts";

type Counts = Record<string, Record<FarmJobState, number>>;

/**
 * Serves a farm queue's depth on a Prometheus registry (a server's `metrics`, so `GET /metrics`
 * shows it): `dcc_farm_jobs{pool, state}`, the jobs each pool's queue holds by BullMQ state, and
 * `dcc_farm_queue_up`, 1 when Redis answered the scrape's count and 0 when it did not (the job
 * counts then keep their last values). Read when scraped, within the queue's `commandTimeoutMs`;
 * a Redis that is down never fails the scrape. A farm front end needs it: its own job store is
 * empty, as its jobs live in Redis.
 */
export function registerFarmMetrics(registry: Registry, queue: FarmJobQueue): void {
  // One count per scrape, shared by both gauges: a registry collects them side by side.
  let current: Promise<Counts | undefined> | undefined;
  const count = (): Promise<Counts | undefined> => {
    current ??= queue
      .counts()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (current = undefined)));
    return current;
  };
  new Gauge({
    name: "dcc_farm_queue_up",
    help: "1 when the farm's Redis answered the scrape's job counts, else 0.",
    registers: [registry],
    async collect() {
      this.set((await count()) === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: "dcc_farm_jobs",
    help: "Jobs in the farm's queues by pool and BullMQ state (finished ones until their retention ends).",
    labelNames: ["pool", "state"],
    registers: [registry],
    async collect() {
      const counts = await count();
      for (const [pool, states] of Object.entries(counts ?? {})) {
        for (const state of farmJobStates) this.set({ pool, state }, states[state]);
      }
    },
  });
}
