import type { CancellationToken } from "./cancellation-token.ts";
import { PollTimeoutError } from "./poll-timeout-error.ts";

/** Asks the outside world whether the run was cancelled; `signal` aborts when the poll times out. */
export type CancellationPoll = (signal: AbortSignal) => boolean | Promise<boolean>;

/** Options for {@link PollingCancellationToken}. */
export interface PollingCancellationTokenOptions {
  /** The source, e.g. a database query for the scan's `cancelled` column. */
  poll: CancellationPoll;
  /** Pause between the end of one poll and the start of the next. Default 1000 ms. */
  intervalMs?: number | undefined;
  /** Bound on each poll; a slower answer counts as a {@link PollTimeoutError}. Default 5000 ms. */
  timeoutMs?: number | undefined;
  /**
   * Receives every failed background poll (a thrown error or a timeout). Required, so a broken
   * source is never silently treated as "not cancelled". The cached answer is kept.
   */
  onError: (error: unknown) => void;
  /** Start polling in the background at once. Default true. */
  autoStart?: boolean | undefined;
}

/**
 * A {@link CancellationToken} backed by an asynchronous source that it polls at an interval,
 * caching the answer so that `isCancelled()` stays synchronous and cheap. Once the source says
 * "cancelled" the token stays cancelled and stops polling. Its timers never keep the process
 * alive; call {@link PollingCancellationToken.close} when the run ends.
 */
export class PollingCancellationToken implements CancellationToken {
  readonly #poll: CancellationPoll;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #onError: (error: unknown) => void;
  #cancelled = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<boolean> | undefined;
  #lastError: unknown;

  constructor(options: PollingCancellationTokenOptions) {
    this.#poll = options.poll;
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#onError = options.onError;
    if (options.autoStart ?? true) this.#schedule(0);
  }

  /** The cached answer of the last successful poll. */
  isCancelled(): boolean {
    return this.#cancelled;
  }

  /** The error of the most recent poll, or `undefined` after a successful one. */
  get lastError(): unknown {
    return this.#lastError;
  }

  /**
   * Polls now (or joins the poll in flight) and resolves with the updated answer.
   * @throws the source's error, or {@link PollTimeoutError} when it exceeds `timeoutMs`.
   */
  refresh(): Promise<boolean> {
    if (this.#cancelled) return Promise.resolve(true);
    this.#inFlight ??= this.#pollOnce().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** Stops background polling. The cached answer stays readable. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #pollOnce(): Promise<boolean> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new PollTimeoutError({ timeoutMs: this.#timeoutMs });
        controller.abort(error);
        reject(error);
      }, this.#timeoutMs);
    });
    try {
      const answer = await Promise.race([
        // The executor runs at once, so a synchronous throw becomes a rejection.
        new Promise<boolean>((resolve) => resolve(this.#poll(controller.signal))),
        timeout,
      ]);
      this.#lastError = undefined;
      if (answer === true) this.#cancelled = true;
      return this.#cancelled;
    } catch (error) {
      this.#lastError = error;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #schedule(delayMs: number): void {
    if (this.#closed || this.#cancelled) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.refresh().then(
        () => this.#schedule(this.#intervalMs),
        (error: unknown) => {
          this.#schedule(this.#intervalMs);
          this.#onError(error);
        },
      );
    }, delayMs);
    this.#timer.unref();
  }
}
