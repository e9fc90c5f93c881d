import type { CancellationProbe } from "./cancellation-probe.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import {
  checkJobId,
  checkKnownKeys,
  checkParent,
  describeValue,
  isOptionsObject,
} from "./internal/token-arguments.ts";

/** Called once when a {@link CancelToken} is cancelled, with the reason given to `cancel`. */
export type CancelListener = (reason: string | undefined) => void;

/** Options for {@link CancelToken}. */
export interface CancelTokenOptions {
  /** Server-owned job id; an empty string counts as none. Never take it from client input. */
  jobId?: string | undefined;
  /**
   * A parent whose cancellation cascades to this token (never the other way round). A
   * {@link CancelToken} or anything with an `AbortSignal` named `signal` is followed at once; a
   * bare {@link CancellationProbe} is polled whenever this token's `cancelled` is read.
   */
  parent?: (CancellationProbe & { readonly signal?: AbortSignal | undefined }) | undefined;
}

/** Options for {@link CancelToken.fromSignal}. */
export interface CancelTokenFromSignalOptions {
  /** Server-owned job id of the new token. */
  jobId?: string | undefined;
}

/**
 * A cancellation flag owned by whoever dispatches the work (a request handler, a job queue).
 * `cancel` is idempotent: the first reason wins and listeners run once. It also exposes an
 * `AbortSignal` for APIs that take one, and satisfies the run-control
 * {@link CancellationToken} protocol through `isCancelled()`.
 */
export class CancelToken implements CancellationProbe {
  /** Server-owned job id, when the dispatcher gave one. */
  readonly jobId: string | undefined;
  #cancelled = false;
  #reason: string | undefined;
  #controller: AbortController | undefined;
  #listeners: Set<CancelListener> | undefined;
  #polledParent: CancellationProbe | undefined;
  #detachParent: (() => void) | undefined;

  /**
   * @param jobIdOrOptions - the server-owned job id, as the seed's `CancelToken("job-42")`, or
   *   {@link CancelTokenOptions}; omit it for a token with no job id.
   * @throws TypeError when the argument is neither a string, an options object nor `undefined`,
   *   or when an option has the wrong type or an unknown name (such as `job_id`).
   */
  constructor(jobIdOrOptions?: string | CancelTokenOptions) {
    const options = tokenOptions(jobIdOrOptions);
    this.jobId = options.jobId === "" ? undefined : options.jobId;
    const parent = options.parent;
    if (parent === undefined) return;
    if (parent.cancelled) {
      this.cancel(parent.reason);
    } else if (parent instanceof CancelToken) {
      this.#detachParent = parent.onCancel((reason) => this.cancel(reason));
    } else if (parent.signal !== undefined) {
      const signal = parent.signal;
      const onAbort = (): void => this.cancel(parent.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#detachParent = () => signal.removeEventListener("abort", onAbort);
    } else {
      this.#polledParent = parent;
    }
  }

  /**
   * A token that is cancelled when `signal` aborts (at once if it already has). The reason is the
   * signal's reason when that is a string, or its message when it is an error.
   */
  static fromSignal(signal: AbortSignal, options: CancelTokenFromSignalOptions = {}): CancelToken {
    if (!(signal instanceof AbortSignal)) {
      throw new TypeError(
        `CancelToken.fromSignal: signal must be an AbortSignal, got ${describeValue(signal)}`,
      );
    }
    checkJobIdOptions("CancelToken.fromSignal", options);
    const token = new CancelToken({ jobId: options.jobId });
    const onAbort = (): void => token.cancel(describeReason(signal.reason));
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener("abort", onAbort, { once: true });
      token.#detachParent = () => signal.removeEventListener("abort", onAbort);
    }
    return token;
  }

  /** Whether {@link CancelToken.cancel} was called here or on a parent. */
  get cancelled(): boolean {
    if (this.#cancelled) return true;
    const parent = this.#polledParent;
    if (parent?.cancelled) {
      this.cancel(parent.reason);
      return true;
    }
    return false;
  }

  /** The reason given to the first `cancel` call, if any. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** An `AbortSignal` that aborts, with a {@link DccMcpCancelledError} as reason, on cancel. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.cancelled) this.#controller.abort(this.#error());
    }
    return this.#controller.signal;
  }

  /** Same as `cancelled`; lets a token serve as a run-control {@link CancellationToken}. */
  isCancelled(): boolean {
    return this.cancelled;
  }

  /**
   * Cancels the token. Idempotent: later calls change nothing. Aborts `signal`, then runs the
   * listeners in the order they subscribed; if any listener throws, the others still run and
   * the first error (or an `AggregateError`) is rethrown afterwards.
   */
  cancel(reason?: string): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    this.#polledParent = undefined;
    this.#detachParent?.();
    this.#detachParent = undefined;
    this.#controller?.abort(this.#error());
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    const errors: unknown[] = [];
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "CancelToken listeners failed");
  }

  /**
   * Subscribes to cancellation. The listener runs once; if the token is already cancelled it
   * runs at once. Returns a disposer that unsubscribes (safe to call more than once).
   */
  onCancel(listener: CancelListener): () => void {
    if (this.cancelled) {
      listener(this.#reason);
      return noop;
    }
    this.#listeners ??= new Set();
    // Wrap so the same function can subscribe twice and each disposer removes only its own.
    const entry: CancelListener = (reason) => listener(reason);
    this.#listeners.add(entry);
    return () => {
      this.#listeners?.delete(entry);
    };
  }

  /**
   * A child token, cancelled when this one is; cancelling the child leaves this one alone. The
   * child stays subscribed to this token until either is cancelled, so cancel children you are
   * done with when this token is long-lived.
   */
  child(options: CancelTokenFromSignalOptions = {}): CancelToken {
    checkJobIdOptions("CancelToken.child", options);
    return new CancelToken({ jobId: options.jobId, parent: this });
  }

  /** Throws a {@link DccMcpCancelledError} ("Request cancelled by client") when cancelled. */
  throwIfCancelled(): void {
    if (this.cancelled) throw this.#error();
  }

  #error(): DccMcpCancelledError {
    return new DccMcpCancelledError({ reason: this.#reason, jobId: this.jobId });
  }
}

function noop(): void {}

function tokenOptions(value: unknown): CancelTokenOptions {
  if (value === undefined) return {};
  if (typeof value === "string") return { jobId: value };
  const where = "new CancelToken";
  if (!isOptionsObject(value)) {
    throw new TypeError(
      `${where}: expected a job id string or an options object { jobId?, parent? }, got ${describeValue(value)}`,
    );
  }
  checkKnownKeys(where, value, ["jobId", "parent"]);
  checkJobId(where, value["jobId"]);
  checkParent(where, value["parent"]);
  return value as CancelTokenOptions;
}

function checkJobIdOptions(where: string, options: unknown): void {
  if (!isOptionsObject(options)) {
    throw new TypeError(
      `${where}: expected an options object { jobId? }, got ${describeValue(options)}`,
    );
  }
  checkKnownKeys(where, options, ["jobId"]);
  checkJobId(where, options["jobId"]);
}

function describeReason(reason: unknown): string | undefined {
  if (typeof reason === "string") return reason;
  if (DccMcpCancelledError.is(reason)) return reason.reason;
  if (reason instanceof Error) return reason.message;
  return undefined;
}
