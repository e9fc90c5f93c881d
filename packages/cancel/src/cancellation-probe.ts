/**
 * Read-only view of a cancellation flag, handed to running work. Both {@link CancelToken} and
 * read-only probes owned by a transport implement it; work must not assume it can cancel.
 */
export interface CancellationProbe {
  /** Whether the owner cancelled the operation. */
  readonly cancelled: boolean;
  /** Server-owned asynchronous job id, when there is one. */
  readonly jobId?: string | undefined;
  /** Why the operation was cancelled, when the owner said so. */
  readonly reason?: string | undefined;
}
