// Layout of the SharedArrayBuffer each sandbox worker shares with the main thread. Int32 slots so
// both sides can use Atomics.load/store/wait/notify on them.

/** Set to 1 by the main thread to stop the running script; read by the interrupt handler. */
export const CANCEL_SLOT = 0;
/** Sequence number of the dispatch call whose answer is waiting on the reply port. */
export const ANSWER_SLOT = 1;
/** Bumped (and notified) on every answer and every cancel, so a waiting worker never misses one. */
export const WAKE_SLOT = 2;
/** Number of Int32 slots. */
export const CONTROL_SLOTS = 4;

/** Allocates a zeroed control block. */
export function newControlBlock(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
}
