import type { CancellationToken } from "./cancellation-token.ts";

/**
 * A {@link CancellationToken} flipped by calling {@link ManualCancellationToken.cancel}, for local
 * runs and tests. Cancellation is permanent.
 */
export class ManualCancellationToken implements CancellationToken {
  #cancelled = false;

  /** Marks the run cancelled. Idempotent. */
  cancel(): void {
    this.#cancelled = true;
  }

  /** True once {@link ManualCancellationToken.cancel} was called. */
  isCancelled(): boolean {
    return this.#cancelled;
  }
}
