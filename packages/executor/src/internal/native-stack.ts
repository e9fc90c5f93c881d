// QuickJS's stack limit bounds its own C stack, which lives in WebAssembly linear memory. The
// same guest recursion also uses the native stack of the thread that runs the WebAssembly, and
// when V8's limit on that stack trips first, QuickJS is unwound in the middle of its own work:
// its runtime can then never be freed. So the QuickJS limit a thread may use is derived from the
// native stack the thread has, never taken on trust.
import { isMainThread, resourceLimits } from "node:worker_threads";

/**
 * Native stack bytes a guest may use per byte of QuickJS stack. The worst path measured is the
 * parser on deeply nested expressions (about 25 native bytes per QuickJS byte with baseline
 * WebAssembly code, release and debug builds alike); twice that leaves room for frames that
 * differ between builds, compiler tiers and V8 versions.
 */
export const nativeBytesPerGuestByte = 50;

/** V8's default stack limit on a main thread (`--stack-size`, in KiB). */
const defaultMainThreadStackKib = 984;

/** Node keeps this much of a worker's stack below V8's limit for its own use. */
const workerStackReserveBytes = 192 * 1024;

/** Node's default `resourceLimits.stackSizeMb` for a worker thread. */
const defaultWorkerStackMb = 4;

/** The V8 stack limit of the calling thread, in bytes. */
export function threadStackBytes(): number {
  if (!isMainThread) {
    const mb = resourceLimits.stackSizeMb ?? defaultWorkerStackMb;
    return Math.max(0, mb * 1024 * 1024 - workerStackReserveBytes);
  }
  return stackSizeFlagKib() * 1024;
}

function stackSizeFlagKib(): number {
  const flags = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)];
  for (const flag of flags) {
    const match = /^--stack[-_]size=(\d+)$/.exec(flag);
    if (match !== null) return Number(match[1]);
  }
  return defaultMainThreadStackKib;
}

/**
 * The largest QuickJS stack limit that is sure to trip before the native stack of a thread with
 * `nativeBytes` of it runs out (rounded down to whole KiB).
 */
export function guestStackCap(nativeBytes: number = threadStackBytes()): number {
  return Math.floor(nativeBytes / nativeBytesPerGuestByte / 1024) * 1024;
}

/** The `resourceLimits.stackSizeMb` a sandbox worker needs for a QuickJS stack limit. */
export function workerStackSizeMb(guestStackBytes: number): number {
  const bytes = guestStackBytes * nativeBytesPerGuestByte + workerStackReserveBytes;
  return Math.ceil(bytes / (1024 * 1024));
}
