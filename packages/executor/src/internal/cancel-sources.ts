// Every way an execution can be cancelled (an AbortSignal, a CancelToken, the caller's ambient
// token) folded into one stop signal for the sandbox and one abort signal for host commands.
import {
  type CancellationProbe,
  CancelToken,
  currentCancelToken,
  DccMcpCancelledError,
} from "@dcc/cancel";

/** The cancel sources of one execution, from its options and the caller's context. */
export interface CancelSourceOptions {
  signal?: AbortSignal | undefined;
  cancelToken?: CancelToken | undefined;
}

/** One execution's cancellation: what to stop, why, and how to stop listening. */
export interface CancelSources {
  /** Aborted when any source cancels: stops the sandbox. */
  readonly stop: AbortSignal;
  /** Aborted with a `DccMcpCancelledError`: the signal host commands receive. */
  readonly host: AbortSignal;
  /** The reason the first cancelling source gave, if any. */
  readonly reason: string | undefined;
  /** Aborts the host signal (if nothing did yet), e.g. when the script ended under a command. */
  abortHost(error: DccMcpCancelledError): void;
  /** Stops listening to every source. Idempotent. */
  dispose(): void;
}

/** Listens to `options.signal`, `options.cancelToken` and the ambient cancel token. */
export function watchCancelSources(options: CancelSourceOptions): CancelSources {
  const stop = new AbortController();
  const hostAbort = new AbortController();
  let reason: string | undefined;
  const cleanups: Array<() => void> = [];
  const cancel = (why?: string): void => {
    if (stop.signal.aborted) return;
    reason = why;
    stop.abort();
    hostAbort.abort(new DccMcpCancelledError({ reason: why }));
  };
  const { signal, cancelToken } = options;
  if (signal !== undefined) {
    const onAbort = (): void => cancel(describeReason(signal.reason));
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
  }
  if (cancelToken !== undefined) cleanups.push(cancelToken.onCancel(cancel));
  const ambient = currentCancelToken();
  if (ambient !== undefined && ambient !== cancelToken) cleanups.push(watchProbe(ambient, cancel));
  return {
    stop: stop.signal,
    host: hostAbort.signal,
    get reason() {
      return reason;
    },
    abortHost(error) {
      if (!hostAbort.signal.aborted) hostAbort.abort(error);
    },
    dispose() {
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

/** The `error` text of a cancelled execution. */
export function cancelledText(reason: string | undefined, started = false): string {
  const base = started ? "Script was cancelled" : "Script was cancelled before it started";
  return reason === undefined || reason === "" ? base : `${base}: ${reason}`;
}

function describeReason(reason: unknown): string | undefined {
  if (typeof reason === "string") return reason;
  if (reason instanceof DccMcpCancelledError) return reason.reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return undefined;
}

/** Calls `cancel` when an ambient probe is cancelled; returns a disposer. */
function watchProbe(probe: CancellationProbe, cancel: (reason?: string) => void): () => void {
  if (probe instanceof CancelToken) return probe.onCancel(cancel);
  if (probe.cancelled) {
    cancel(probe.reason);
    return () => {};
  }
  // A read-only probe has no events; poll it while the script runs.
  const timer = setInterval(() => {
    if (probe.cancelled) cancel(probe.reason);
  }, 5);
  timer.unref();
  return () => clearInterval(timer);
}
