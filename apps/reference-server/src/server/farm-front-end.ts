// A farm's front end: the server's adapters answer search and show the tool texts; every script
// (async or not) is a job on the farm's queue. The queue lives as long as the server.
import type { DccAdapter } from "@dcc/executor";
import {
  createFarmJobQueue,
  type FarmJobQueue,
  type FarmRedisOptions,
  registerFarmMetrics,
} from "@dcc/farm";
import type { DccAdapterRegistration, DccServer } from "@dcc/mcp-bridge";

/** What the reference server's host commands say on a farm's front end. */
export const farmCatalogOnlyReason = "scripts run on the farm's workers";

/**
 * Opens the farm's queue for `adapters` (one pool per instance name, as the workers' default
 * `--pool` is their DCC's name), starts the server on it, and closes the queue after the server.
 * Nothing connects to Redis before the first job or readiness check.
 */
export async function serveFarm(
  options: {
    redis: FarmRedisOptions;
    adapters: ReadonlyArray<DccAdapter | DccAdapterRegistration>;
    scriptsDir: string | undefined;
  },
  start: (jobQueue: FarmJobQueue) => Promise<DccServer>,
): Promise<DccServer & { readonly jobQueue: FarmJobQueue }> {
  const jobQueue = createFarmJobQueue({
    redis: options.redis,
    pools: options.adapters.map((entry) =>
      "adapter" in entry ? (entry.name ?? entry.adapter.dccName) : entry.dccName,
    ),
    ...(options.scriptsDir === undefined ? {} : { scripts: options.scriptsDir }),
  });
  let server: DccServer;
  try {
    server = await start(jobQueue);
  } catch (error) {
    await jobQueue.close();
    throw error;
  }
  // Its jobs live in Redis, not in the server's job store: /metrics reads their counts there.
  if (server.metrics !== undefined) registerFarmMetrics(server.metrics, jobQueue);
  // Over stdio the server also closes on its own, when stdin ends.
  const closed = server.closed.then(() => jobQueue.close());
  return {
    ...server,
    jobQueue,
    closed,
    async close() {
      await server.close();
      await closed;
    },
  };
}
