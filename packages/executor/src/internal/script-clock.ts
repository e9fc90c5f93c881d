// A script's deadline, which stops while a person is asked to approve a command: the time a
// question waits is the person's, not the script's. The sandbox thread reads the shift from
// shared memory on every check; timers on the main thread re-check when they fire.

/** The shift while a question is open: far enough that nothing times out meanwhile (~12 days). */
const paused = 0x3fff_ffff;

/** Longest a deadline timer sleeps while the deadline has moved, before it looks again. */
const recheckMs = 1000;

/** A script's deadline that {@link ScriptClock.pause} holds still. */
export class ScriptClock {
  /** Slot 0: milliseconds added to the base deadline; shared with the sandbox thread. */
  readonly shift: Int32Array = new Int32Array(new SharedArrayBuffer(4));
  /** The deadline the script started with, in `Date.now()` milliseconds. */
  readonly base: number;
  #added = 0;
  #pauses = 0;
  #pausedAt = 0;

  constructor(base: number) {
    this.base = base;
  }

  /** The deadline now, in `Date.now()` milliseconds (far off while paused). */
  get deadline(): number {
    return shiftedDeadline(this.base, this.shift);
  }

  /**
   * Stops the clock until the returned function is called (once). Pauses may overlap: the clock
   * runs again when the last one ends.
   */
  pause(): () => void {
    if (this.#pauses++ === 0) {
      this.#pausedAt = Date.now();
      Atomics.store(this.shift, 0, paused);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#pauses > 0) return;
      this.#added = Math.min(paused - 1, this.#added + (Date.now() - this.#pausedAt));
      Atomics.store(this.shift, 0, this.#added);
    };
  }
}

/** A deadline moved by a shared shift (see {@link ScriptClock.shift}). */
export function shiftedDeadline(base: number, shift: Int32Array | undefined): number {
  return shift === undefined ? base : base + Atomics.load(shift, 0);
}

/**
 * Calls `fire` once `graceMs` after the deadline has passed, following it when it moves.
 * @returns Cancels the timer.
 */
export function atDeadline(
  base: number,
  shift: Int32Array | undefined,
  graceMs: number,
  fire: () => void,
): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    const remaining = shiftedDeadline(base, shift) + graceMs - Date.now();
    if (remaining <= 0) {
      fire();
      return;
    }
    // A moved deadline may move back (a question was answered): look again soon.
    const moved = shift !== undefined && Atomics.load(shift, 0) !== 0;
    timer = setTimeout(arm, moved ? Math.min(remaining, recheckMs) : remaining);
  };
  timer = setTimeout(arm, Math.max(0, base + graceMs - Date.now()));
  return () => clearTimeout(timer);
}
