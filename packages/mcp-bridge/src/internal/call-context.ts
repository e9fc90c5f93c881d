// The one place the bridge touches @dcc/cancel's ambient context: a call's token and its
// server-owned job id are installed together so host command handlers see both through
// checkCancelled() and currentJobId().
import { CancelToken, withCancelToken, withHostJobId } from "@dcc/cancel";

/** Creates the token of one call; a known parent's token makes it a child, so cancel cascades. */
export function createCallToken(jobId: string, parent: CancelToken | undefined): CancelToken {
  return parent === undefined ? new CancelToken({ jobId }) : parent.child({ jobId });
}

/** Cancels `token` when `signal` aborts; returns a disposer. */
export function linkSignal(signal: AbortSignal, token: CancelToken, reason: string): () => void {
  if (signal.aborted) {
    token.cancel(reason);
    return () => {};
  }
  const onAbort = (): void => token.cancel(reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** Runs `fn` with the call's token and server-owned job id installed in the ambient context. */
export function runInCallContext<R>(token: CancelToken, jobId: string, fn: () => R): R {
  return withCancelToken(token, () => withHostJobId(jobId, fn));
}

export { CancelToken };
