import { currentStore, resolveJobId, runWithChanges } from "./internal/ambient-store.ts";

/**
 * The authoritative server-owned id of the asynchronous job running now: the id the host bridge
 * installed with {@link withHostJobId}, else the ambient token's `jobId`, else the ambient job's
 * `jobId`, else `undefined`. Nothing here reads tool arguments, so a client-supplied
 * `_meta.dcc.jobId` can never leak in.
 */
export function currentJobId(): string | undefined {
  return resolveJobId(currentStore());
}

/**
 * Runs `fn` with `jobId` as the host bridge's server-owned job id (first in
 * {@link currentJobId}'s order). Pass only ids the server generated; `undefined` or `""` hides
 * an inherited one.
 */
export function withHostJobId<R>(jobId: string | undefined, fn: () => R): R {
  return runWithChanges({ hostJobId: jobId === undefined || jobId === "" ? null : jobId }, fn);
}
