import type { CancellationProbe } from "./cancellation-probe.ts";
import type { ContextReset } from "./context-reset.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { currentStore, resolveJobId, runWithChanges, storage } from "./internal/ambient-store.ts";
import { resetVariable, setVariable } from "./internal/context-variable.ts";

/**
 * Throws a {@link DccMcpCancelledError} ("Request cancelled by client") when the ambient request
 * token is cancelled. Does nothing outside a request, or where `null` was installed. Cheap
 * enough to call once per loop iteration.
 * @throws {DccMcpCancelledError} when the installed token is cancelled.
 */
export function checkCancelled(): void {
  const store = storage.getStore();
  if (store === undefined) return;
  const token = store.token;
  if (token?.cancelled) {
    throw new DccMcpCancelledError({ reason: token.reason, jobId: resolveJobId(store) });
  }
}

/**
 * Installs `token` as the ambient request token for the rest of the current execution and the
 * work it starts (dispatcher use; skill code calls {@link checkCancelled}). `null` hides an
 * inherited token. Pair it with {@link resetCancelToken} in a `finally` block, or prefer the
 * scoped {@link withCancelToken}.
 * @returns a handle for {@link resetCancelToken}.
 */
export function setCancelToken(token: CancellationProbe | null): ContextReset {
  return setVariable("cancelToken", token);
}

/**
 * Restores the ambient token that the matching {@link setCancelToken} replaced. As with Python's
 * `ContextVar.reset`, each handle restores its own previous value, whatever the order.
 * @throws {ContextResetError} when the handle was used already, belongs to the job variable,
 * or was created in another scope.
 */
export function resetCancelToken(handle: ContextReset): void {
  resetVariable("cancelToken", handle);
}

/** The ambient request token, or `undefined` when none is installed (or `null` hides one). */
export function currentCancelToken(): CancellationProbe | undefined {
  return currentStore().token ?? undefined;
}

/**
 * Runs `fn` with `token` as the ambient request token (`null` hides an inherited one). The
 * token reaches everything `fn` starts, including promises and timers that outlive it.
 */
export function withCancelToken<R>(token: CancellationProbe | null, fn: () => R): R {
  return runWithChanges({ token }, fn);
}
