/**
 * The per-job handle a host dispatcher publishes with {@link setCurrentJob} for work that runs
 * outside a request (queued renders, callbacks, simulations). Only `cancelled` is contractual;
 * implementations may carry more for their own bookkeeping.
 */
export interface JobHandle {
  /** True once the host dispatcher has signalled cancellation. */
  readonly cancelled: boolean;
  /** Server-owned job id, when there is one. */
  readonly jobId?: string | undefined;
  /** Why the job was cancelled, when the dispatcher said so. */
  readonly reason?: string | undefined;
}
