import type { ContextReset } from "./context-reset.ts";
import { currentStore, runWithChanges } from "./internal/ambient-store.ts";
import { resetVariable, setVariable } from "./internal/context-variable.ts";
import type { JobHandle } from "./job-handle.ts";

/**
 * Installs `job` as the ambient per-job handle for the rest of the current execution and the
 * work it starts (host dispatcher use). `null` hides an inherited job. Pair it with
 * {@link resetCurrentJob} in a `finally` block, or prefer {@link withCurrentJob}.
 * @returns a handle for {@link resetCurrentJob}.
 */
export function setCurrentJob(job: JobHandle | null): ContextReset {
  return setVariable("currentJob", job);
}

/**
 * Restores the ambient job that the matching {@link setCurrentJob} replaced.
 * @throws {ContextResetError} when the handle was used already, belongs to the token variable,
 * or was created in another scope.
 */
export function resetCurrentJob(handle: ContextReset): void {
  resetVariable("currentJob", handle);
}

/** The ambient per-job handle, or `undefined` when none is installed. */
export function currentJob(): JobHandle | undefined {
  return currentStore().job ?? undefined;
}

/** Runs `fn` with `job` as the ambient per-job handle (`null` hides an inherited one). */
export function withCurrentJob<R>(job: JobHandle | null, fn: () => R): R {
  return runWithChanges({ job }, fn);
}
