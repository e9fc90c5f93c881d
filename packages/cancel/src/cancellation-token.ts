/**
 * The run-control cancellation protocol: any object whose `isCancelled()` answers
 * synchronously. {@link ManualCancellationToken}, {@link PollingCancellationToken} and
 * {@link CancelToken} all satisfy it; pass one to {@link CancellationManager}.
 */
export interface CancellationToken {
  /** True once the run should stop. Must be cheap: it is called at every checkpoint. */
  isCancelled(): boolean;
}
