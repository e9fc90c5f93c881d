import { AsyncLocalStorage } from "node:async_hooks";
import type { CancellationProbe } from "../cancellation-probe.ts";
import type { JobHandle } from "../job-handle.ts";

/**
 * The whole ambient cancel context in one immutable record, so one `getStore()` answers every
 * probe and one capture carries everything. Every change makes a new record.
 */
export interface AmbientStore {
  readonly token: CancellationProbe | null;
  readonly job: JobHandle | null;
  readonly hostJobId: string | null;
  /**
   * Identity of the scope (a `run` callback, or the root) the record belongs to; reset handles
   * may only be used in the scope that created them.
   */
  readonly scope: object;
}

/** The one storage behind every ambient helper of this package. */
export const storage: AsyncLocalStorage<AmbientStore> = new AsyncLocalStorage<AmbientStore>();

const rootScope: object = Object.freeze({});

/** What an execution with no store sees. */
export const emptyStore: AmbientStore = Object.freeze({
  token: null,
  job: null,
  hostJobId: null,
  scope: rootScope,
});

/** The current record, or {@link emptyStore} outside any context. */
export function currentStore(): AmbientStore {
  return storage.getStore() ?? emptyStore;
}

/** Runs `fn` in a new scope whose record is the current one with `changes` applied. */
export function runWithChanges<R>(changes: Partial<Omit<AmbientStore, "scope">>, fn: () => R): R {
  return storage.run({ ...currentStore(), ...changes, scope: {} }, fn);
}

/** Runs `fn` with no ambient context at all, whatever the caller had installed. */
export function runIsolated<R>(fn: () => R): R {
  return storage.run(emptyStore, fn);
}

/** The authoritative job id: host bridge first, then the token's, then the current job's. */
export function resolveJobId(store: AmbientStore): string | undefined {
  return (
    nonEmpty(store.hostJobId) ??
    nonEmpty(store.token?.jobId) ??
    nonEmpty(store.job?.jobId) ??
    undefined
  );
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === "" ? undefined : value;
}
