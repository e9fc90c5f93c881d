// Over HTTP a request and its notifications/cancelled travel as separate POSTs, so the cancel can
// reach the server first. The SDK ignores a cancel for an id it does not know, and the call would
// then run to the end. This per-session record remembers such cancels briefly and drops the
// request when it arrives (the client has abandoned it; no reply is owed).
type RequestId = string | number;

interface MessageShape {
  id?: unknown;
  method?: unknown;
  params?: { requestId?: unknown };
}

/** Early cancels of one session, bounded in count and age. */
export class EarlyCancels {
  readonly #seen = new Set<RequestId>();
  readonly #early = new Map<RequestId, number>();
  readonly #maxSeen: number;
  readonly #maxEarly: number;
  readonly #ttlMs: number;

  constructor(options: { maxSeen?: number; maxEarly?: number; ttlMs?: number } = {}) {
    this.#maxSeen = options.maxSeen ?? 4096;
    this.#maxEarly = options.maxEarly ?? 256;
    this.#ttlMs = options.ttlMs ?? 30_000;
  }

  /** Records the messages of one POST and returns those to deliver (early-cancelled requests removed). */
  filter(messages: readonly unknown[], now: number = Date.now()): unknown[] {
    for (const [id, at] of this.#early) if (now - at > this.#ttlMs) this.#early.delete(id);
    const kept: unknown[] = [];
    for (const message of messages) {
      const shape = (
        typeof message === "object" && message !== null ? message : {}
      ) as MessageShape;
      const isRequest = typeof shape.method === "string" && isRequestId(shape.id);
      if (isRequest) {
        const id = shape.id as RequestId;
        if (this.#early.delete(id)) continue;
        this.#remember(id);
      } else if (shape.method === "notifications/cancelled") {
        const target = shape.params?.requestId;
        if (isRequestId(target) && !this.#seen.has(target) && this.#early.size < this.#maxEarly) {
          this.#early.set(target, now);
        }
      }
      kept.push(message);
    }
    return kept;
  }

  #remember(id: RequestId): void {
    this.#seen.add(id);
    if (this.#seen.size > this.#maxSeen) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || typeof value === "number";
}
