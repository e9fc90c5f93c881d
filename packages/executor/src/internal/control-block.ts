// Layout of the SharedArrayBuffer each sandbox worker shares with the main thread. Int32 slots so
// both sides can use Atomics.load/store/wait/notify on them.

/** Set to 1 by the main thread to stop the running script; read by the interrupt handler. */
export const CANCEL_SLOT = 0;
/** Sequence number of the dispatch call whose answer is ready. */
export const ANSWER_SLOT = 1;
/** Bumped (and notified) on every answer and every cancel, so a waiting worker never misses one. */
export const WAKE_SLOT = 2;
/**
 * Length in UTF-16 code units of the answer written to the reply text buffer, or -1 when the
 * answer did not fit and went to the reply port instead. Stored before {@link ANSWER_SLOT}.
 */
export const REPLY_LENGTH_SLOT = 3;
/**
 * Sequence number of the dispatch call whose host command went asynchronous: its answer waits on
 * I/O (a link to a DCC process), so the worker stops watching for it and sleeps at once.
 */
export const PENDING_SLOT = 4;
/** Number of Int32 slots. */
export const CONTROL_SLOTS = 5;
/**
 * Capacity of the shared reply text buffer, in UTF-16 code units. Most answers are small, and
 * copying them through shared memory saves a message on the reply port per call.
 */
export const REPLY_TEXT_UNITS: number = 16 * 1024;

/** Allocates a zeroed control block. */
export function newControlBlock(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
}

/** Allocates the shared buffer small dispatch answers are copied into. */
export function newReplyText(): Uint16Array {
  return new Uint16Array(new SharedArrayBuffer(REPLY_TEXT_UNITS * Uint16Array.BYTES_PER_ELEMENT));
}

/** Copies `text` into `buffer` if it fits; returns whether it did. */
export function writeReplyText(buffer: Uint16Array, text: string): boolean {
  const length = text.length;
  if (length > buffer.length) return false;
  for (let i = 0; i < length; i++) buffer[i] = text.charCodeAt(i);
  return true;
}

const chunkUnits = 4096;

/** Reads `length` code units written by {@link writeReplyText}. */
export function readReplyText(buffer: Uint16Array, length: number): string {
  if (length <= chunkUnits) {
    return String.fromCharCode.apply(null, buffer.subarray(0, length) as unknown as number[]);
  }
  let text = "";
  for (let start = 0; start < length; start += chunkUnits) {
    const end = Math.min(length, start + chunkUnits);
    text += String.fromCharCode.apply(null, buffer.subarray(start, end) as unknown as number[]);
  }
  return text;
}
