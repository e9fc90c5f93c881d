/** Why a call's wait ended early: its deadline, or its caller's signal. */
export type ExpiryCode = "LINK_TIMEOUT" | "CANCELLED";

/** Options for {@link PendingCall}. */
export interface PendingCallOptions {
  readonly id: number;
  readonly method: string;
  /** The encoded call frame. */
  readonly frame: Buffer;
  /** Deadline from the moment of the call, queueing and connecting included. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Called once, when the deadline passes or the signal aborts before the call settled. */
  readonly expire: (call: PendingCall, code: ExpiryCode) => void;
}

/** One call on its way: queued, then sent; settled exactly once. */
export class PendingCall {
  readonly id: number;
  readonly method: string;
  readonly frame: Buffer;
  readonly timeoutMs: number;
  /** Queued on our side, or sent to the host. */
  state: "queued" | "sent" = "queued";
  readonly promise: Promise<unknown>;
  #resolve!: (value: unknown) => void;
  #reject!: (error: unknown) => void;
  #settled = false;
  readonly #timer: NodeJS.Timeout;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: () => void;

  constructor(options: PendingCallOptions) {
    this.id = options.id;
    this.method = options.method;
    this.frame = options.frame;
    this.timeoutMs = options.timeoutMs;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#timer = setTimeout(() => options.expire(this, "LINK_TIMEOUT"), options.timeoutMs);
    this.#signal = options.signal;
    this.#onAbort = () => options.expire(this, "CANCELLED");
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** True once resolved or rejected. */
  get settled(): boolean {
    return this.#settled;
  }

  resolve(value: unknown): void {
    if (this.#finish()) this.#resolve(value);
  }

  reject(error: unknown): void {
    if (this.#finish()) this.#reject(error);
  }

  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
    return true;
  }
}
