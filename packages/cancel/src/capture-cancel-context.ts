import { storage } from "./internal/ambient-store.ts";

/** Runs a function inside a captured ambient cancel context; see {@link captureCancelContext}. */
export type CancelContextRunner = <R>(fn: () => R) => R;

/**
 * Snapshots the whole ambient cancel context (request token, current job, host job id) and
 * returns a function that runs callbacks inside it later. Use it where work arrives on a callback
 * that does not inherit the request's context, such as a message from a pooled worker thread.
 * Each call of the runner gets its own scope, so reset handles cannot cross into it.
 */
export function captureCancelContext(): CancelContextRunner {
  const store = storage.getStore();
  if (store === undefined) return (fn) => storage.exit(fn);
  return (fn) => storage.run({ ...store, scope: {} }, fn);
}
