import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { resolveJobId, storage } from "./internal/ambient-store.ts";

/**
 * Throws a {@link DccMcpCancelledError} when either the ambient request token or the ambient
 * per-job handle is cancelled. The request token is checked first, so when both are cancelled
 * the message is "Request cancelled by client"; a cancelled job alone gives "Job cancelled by
 * dispatcher". Use it in code that may also run outside a request.
 * @throws {DccMcpCancelledError} when either layer is cancelled.
 */
export function checkDccCancelled(): void {
  const store = storage.getStore();
  if (store === undefined) return;
  const token = store.token;
  if (token?.cancelled) {
    throw new DccMcpCancelledError({ reason: token.reason, jobId: resolveJobId(store) });
  }
  const job = store.job;
  if (job?.cancelled) {
    throw new DccMcpCancelledError({
      source: "job",
      reason: job.reason,
      jobId: resolveJobId(store),
    });
  }
}
