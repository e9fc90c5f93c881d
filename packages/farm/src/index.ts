/**
 * `@dcc/farm`: async `dcc_execute` jobs on a real queue. `createFarmJobQueue` is a `JobQueue` for
 * `@dcc/mcp-bridge` servers backed by BullMQ on Redis, with a queue per pool of DCC workers;
 * `runFarmWorker` (and the `dcc-farm-worker` CLI) owns one `DccAdapter` and runs the pool's jobs
 * one at a time in its `@dcc/executor` sandbox. It sits above the bridge and the adapters; the
 * bridge never imports it, so a server without a farm never loads a Redis client.
 */
export type { FarmErrorOptions } from "./farm-error.ts";
export { FarmError, FarmErrorCode } from "./farm-error.ts";
export type { FarmJobQueue, FarmJobQueueOptions, FarmJobState } from "./farm-job-queue.ts";
export { createFarmJobQueue, farmJobStates } from "./farm-job-queue.ts";
export type { FarmRedisSettings } from "./farm-redis-from-settings.ts";
export { farmRedisFromSettings } from "./farm-redis-from-settings.ts";
export type { FarmRedisOptions } from "./farm-redis-options.ts";
export { registerFarmMetrics } from "./register-farm-metrics.ts";
export type { FarmWorker, FarmWorkerOptions } from "./run-farm-worker.ts";
export { runFarmWorker } from "./run-farm-worker.ts";
export type { StartTracingOptions, Tracing } from "./start-tracing.ts";
export { requestedTraceExporters, startTracing } from "./start-tracing.ts";
