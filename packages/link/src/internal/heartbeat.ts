import type { HostLoop } from "../link-welcome.ts";

/** Options for {@link Heartbeat}. */
export interface HeartbeatOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly pumpStallMs: number;
  readonly send: (id: number) => void;
  readonly nextId: () => number;
  readonly unresponsive: (message: string) => void;
}

/**
 * Pings the host while the link is idle (nothing in flight, nothing abandoned) and judges the
 * answers. A host running one of our calls is busy, not wedged, so nothing is judged while a
 * call holds it: the call's own deadline bounds that time. Unresponsive means: no pong within
 * `timeoutMs` while idle (the process is frozen, or its loop is stuck outside any call), or, for
 * a pump-style host, a pong saying the main thread has not pumped for more than `pumpStallMs`
 * while no call runs (the host's timer stopped firing).
 */
export class Heartbeat {
  readonly #options: HeartbeatOptions;
  #timer: NodeJS.Timeout | undefined;
  #pingId: number | undefined;
  #stopped = false;

  constructor(options: HeartbeatOptions) {
    this.#options = options;
  }

  /** The link is idle and connected: keep pinging. */
  idle(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#schedule(this.#options.intervalMs, () => this.#ping());
  }

  /** A call holds the host (or the link is down): stop judging, forget the outstanding ping. */
  busy(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pingId = undefined;
  }

  /** For good. */
  stop(): void {
    this.#stopped = true;
    this.busy();
  }

  /** Takes a pong; false when it answers no outstanding ping. */
  pong(
    frame: { id: unknown; busy: boolean; pumpAgeMs: number | undefined },
    loop: HostLoop,
  ): boolean {
    if (this.#pingId === undefined || frame.id !== this.#pingId) return false;
    this.busy();
    const age = frame.pumpAgeMs;
    if (loop === "pump" && !frame.busy && age !== undefined && age > this.#options.pumpStallMs) {
      this.#options.unresponsive(
        `The host's main thread has not serviced the link for ${age} ms (limit ${this.#options.pumpStallMs} ms)`,
      );
      return true;
    }
    this.idle();
    return true;
  }

  #ping(): void {
    const id = this.#options.nextId();
    this.#pingId = id;
    this.#options.send(id);
    this.#schedule(this.#options.timeoutMs, () => {
      this.busy();
      this.#options.unresponsive(
        `The host did not answer a heartbeat in ${this.#options.timeoutMs} ms`,
      );
    });
  }

  #schedule(ms: number, action: () => void): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      action();
    }, ms);
    // The heartbeat alone must not keep a process alive.
    this.#timer.unref();
  }
}
