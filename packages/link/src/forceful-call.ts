import type { CancellationManager } from "@dcc/cancel";
import type { CallCompletion } from "./call-completion.ts";
import type { DccProcess } from "./dcc-process.ts";
import { LinkError } from "./link-error.ts";

/** Options for {@link forcefulCall}. */
export interface ForcefulCallOptions {
  /** The method to call. */
  method: string;
  /** Its params (a JSON object). */
  params?: Readonly<Record<string, unknown>> | undefined;
  /** Registers the call as an active call, so a checkpoint that sees the run cancelled stops it
   * (and `manager.settled()` waits until it has stopped). */
  manager?: CancellationManager | undefined;
  /** Id of the active call on `manager`. Default: a fresh `dcc-link:<method>:<n>`. */
  callId?: string | undefined;
  /** The call's deadline. Default: the link's `callTimeoutMs`. */
  timeoutMs?: number | undefined;
  /** How long the host may take to stop after the deadline or a cancel. Default 2000 ms. */
  graceMs?: number | undefined;
  /** The caller's signal; aborting it cancels the call the same way. */
  signal?: AbortSignal | undefined;
}

let nextCallNumber = 1;

/**
 * Calls `method` on the host and makes sure the host does not go on running it for nobody. When
 * the deadline passes or the call is cancelled (by `signal`, or by `manager` at a checkpoint),
 * the host is asked to cancel cooperatively; if it has not answered within `graceMs`, the DCC
 * process is ended with `terminateProcess` (SIGTERM, then SIGKILL). The promise settles once
 * the outcome is known, so at most deadline + grace + the process's termination time.
 * @throws {LinkError} as {@link LinkClient.call}; after a deadline or cancel, `completion` is
 *   `complete` or `not_started` when the host stopped in time, or `unknown` with
 *   `hostTerminated: true` when the process was ended.
 */
export async function forcefulCall(
  host: DccProcess,
  options: ForcefulCallOptions,
): Promise<unknown> {
  // One controller for every way the call is stopped: the caller's signal is forwarded to it by
  // a listener removed when the call settles (AbortSignal.any would allocate a dependent signal
  // per call and keep it registered on the caller's signal until it is collected).
  const controller = new AbortController();
  const caller = options.signal;
  const forward = (): void => controller.abort(caller?.reason);
  if (caller?.aborted === true) forward();
  else caller?.addEventListener("abort", forward, { once: true });
  const signal = controller.signal;
  const callId = options.callId ?? `dcc-link:${options.method}:${nextCallNumber++}`;
  const manager = options.manager;
  let outcome: Promise<unknown> | undefined;
  manager?.registerActiveCall(callId, () => {
    controller.abort();
    return outcome?.catch(() => undefined);
  });
  outcome = (async () => {
    try {
      return await host.call(options.method, options.params, {
        timeoutMs: options.timeoutMs,
        signal,
      });
    } catch (error) {
      throw await stopOrTerminate(host, error, options.graceMs ?? 2000);
    } finally {
      caller?.removeEventListener("abort", forward);
      manager?.unregisterActiveCall(callId);
    }
  })();
  return outcome;
}

/** After a deadline or cancel: waits `graceMs` for the host to drop the call, else ends it. */
async function stopOrTerminate(
  host: DccProcess,
  error: unknown,
  graceMs: number,
): Promise<unknown> {
  if (!(error instanceof LinkError) || error.completion !== "unknown") return error;
  if (error.code !== "LINK_TIMEOUT" && error.code !== "CANCELLED") return error;
  const abandoned = host.link?.abandonedCall;
  if (abandoned !== undefined && abandoned.id === error.callId) {
    const completion = await within(abandoned.settled, graceMs);
    if (completion !== undefined && completion !== "unknown") {
      return rewrap(
        error,
        completion,
        `${error.message}; it stopped within the grace period`,
        false,
      );
    }
  }
  await host.terminate();
  return rewrap(error, "unknown", `${error.message}; the host process was terminated`, true);
}

function rewrap(
  error: LinkError,
  completion: CallCompletion,
  message: string,
  hostTerminated: boolean,
): LinkError {
  return new LinkError({
    code: error.code,
    message,
    completion,
    method: error.method,
    callId: error.callId,
    hostTerminated,
    cause: error,
  });
}

/** The promise's value if it settles within `ms`, else undefined; the timer is cleared. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
