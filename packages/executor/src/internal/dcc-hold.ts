// Which script holds a DCC. A script takes it at its first command that may change the scene and
// keeps it until its transaction has ended (committed or rolled back), so two scripts' changes
// never interleave and a rollback only ever undoes its own script's work. Other scripts' reads
// run between the holder's commands, except while the holder is ending (sealed): a stopped
// script's rollback finishes before anybody else reads or changes the DCC.
import type { ToolDispatcher } from "../tool-dispatcher.ts";

/** Whoever takes the hold: one script's transaction. */
export type HoldOwner = object;

interface Waiter {
  readonly owner: HoldOwner;
  admit(): void;
  refuse(error: Error): void;
  /** The error a waiting change gets when the holder lingers (see {@link DccHold.linger}). */
  readonly busy: (() => Error) | undefined;
}

/** The hold of one DCC (one dispatcher); see the module header. */
export class DccHold {
  #holder: HoldOwner | undefined;
  #sealed = false;
  /** Set while the holder stopped under a host command that is still running. */
  #lingering = false;
  readonly #writers: Waiter[] = [];
  readonly #readers: Waiter[] = [];
  /**
   * 1 while sealed. A sandbox thread reads it before each call on its dispatch lane, and sends
   * the call through the main thread instead (where it waits) while it is set.
   */
  readonly gate: Int32Array = new Int32Array(new SharedArrayBuffer(4));

  /** True when `owner` holds the DCC. */
  holds(owner: HoldOwner): boolean {
    return this.#holder === owner;
  }

  /**
   * For a command that may change the scene: undefined when `owner` holds the DCC now (taken
   * at once, or already), else a promise that settles once it does. It rejects with
   * `refusal()` when `signal` aborts first, and with `busy()` while (or once) the holder
   * lingers under a host command nobody waits for.
   */
  take(
    owner: HoldOwner,
    signal: AbortSignal,
    refusal: () => Error,
    busy: () => Error,
  ): Promise<void> | undefined {
    if (this.#holder === owner) return undefined;
    if (this.#holder === undefined) {
      this.#holder = owner;
      return undefined;
    }
    if (this.#lingering) return Promise.reject(busy());
    return this.#wait(this.#writers, owner, signal, refusal, busy);
  }

  /**
   * For a read: undefined when it may run now, else a promise that settles once the holder's
   * end has finished. It rejects with `refusal()` when `signal` aborts first.
   */
  pass(owner: HoldOwner, signal: AbortSignal, refusal: () => Error): Promise<void> | undefined {
    if (!this.#sealed || this.#holder === owner) return undefined;
    return this.#wait(this.#readers, owner, signal, refusal);
  }

  /** The holder `owner` has stopped: nobody else's command runs until it releases. */
  seal(owner: HoldOwner): void {
    if (this.#holder !== owner || this.#sealed) return;
    this.#sealed = true;
    Atomics.store(this.gate, 0, 1);
  }

  /**
   * `owner` stopped under a host command that is still running, and keeps the DCC until it
   * settles: reads go on (the dispatcher answers them `HOST_BUSY` meanwhile), and changes are
   * refused at once with their `busy()` rather than left waiting for work nobody waits for.
   */
  linger(owner: HoldOwner): void {
    if (this.#holder !== owner) return;
    this.#lingering = true;
    this.unseal(owner);
    for (const writer of this.#writers.splice(0)) {
      writer.refuse(writer.busy?.() ?? new Error("the DCC is busy"));
    }
  }

  /** Lets reads in again while `owner` still holds the DCC. */
  unseal(owner: HoldOwner): void {
    if (this.#holder !== owner || !this.#sealed) return;
    this.#sealed = false;
    Atomics.store(this.gate, 0, 0);
    for (const reader of this.#readers.splice(0)) reader.admit();
  }

  /** `owner` is done: it no longer holds the DCC nor waits for it. The next writer takes it. */
  release(owner: HoldOwner): void {
    const waiting = this.#writers.findIndex((waiter) => waiter.owner === owner);
    if (waiting !== -1) this.#writers.splice(waiting, 1);
    if (this.#holder !== owner) return;
    this.unseal(owner);
    this.#lingering = false;
    const next = this.#writers.shift();
    this.#holder = next?.owner;
    next?.admit();
  }

  #wait(
    queue: Waiter[],
    owner: HoldOwner,
    signal: AbortSignal,
    refusal: () => Error,
    busy?: () => Error,
  ): Promise<void> {
    if (signal.aborted) return Promise.reject(refusal());
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queue.indexOf(waiter);
        if (index === -1) return;
        queue.splice(index, 1);
        reject(refusal());
      };
      const waiter: Waiter = {
        owner,
        admit: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        refuse: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
        busy,
      };
      queue.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

const holds = new WeakMap<ToolDispatcher, DccHold>();

/** The hold of the DCC behind `dispatcher`: one per dispatcher, shared by its executors. */
export function holdOf(dispatcher: ToolDispatcher): DccHold {
  let hold = holds.get(dispatcher);
  if (hold === undefined) {
    hold = new DccHold();
    holds.set(dispatcher, hold);
  }
  return hold;
}
