import { readSync, writeSync } from "node:fs";
import type { Socket } from "node:net";
import type { CallCompletion } from "./call-completion.ts";
import { maxParamsDepth } from "./internal/encode-call.ts";
import { type Frame, FrameDecoder, FrameViolation } from "./internal/frame-codec.ts";
import { nestsDeeperThan } from "./internal/json-nesting.ts";
import { openConnection } from "./internal/open-connection.ts";
import { callFrame, cancelFrame, parseServerFrame } from "./internal/protocol.ts";
import type { LinkEndpoint } from "./link-endpoint.ts";
import { assertLoopbackEndpoint } from "./link-endpoint.ts";

/**
 * What another thread of this process needs to open its own connection to a host: where it
 * listens and its token. It comes from {@link LinkClient.access}; keep it inside the process.
 */
export interface LinkAccess {
  readonly endpoint: LinkEndpoint;
  readonly token: string;
  /** Largest frame body accepted or sent, in bytes. */
  readonly maxFrameBytes: number;
}

/** Options for {@link openSyncLink}. */
export interface OpenSyncLinkOptions {
  /** Bound on connecting and the handshake. Default 5000 ms. */
  timeoutMs?: number | undefined;
  /** Gives up at once when it aborts. */
  signal?: AbortSignal | undefined;
}

/** When a {@link SyncLink.call} stops waiting. */
export interface SyncCallWait {
  /** Absolute deadline in `Date.now()` milliseconds. */
  readonly deadline: number;
  /** Checked while waiting; true stops the wait (the host is asked to cancel the call). */
  shouldStop(): boolean;
}

/** How a {@link SyncLink.call} ended. */
export type SyncCallOutcome =
  | { readonly status: "result"; readonly result: unknown }
  | {
      readonly status: "error";
      /** The host's code, e.g. `NOT_FOUND` or `UNKNOWN_METHOD`. */
      readonly code: string;
      readonly message: string;
      readonly data?: unknown;
      readonly completion: Extract<CallCompletion, "complete" | "not_started">;
    }
  /** `shouldStop` said stop, or the deadline passed: the host may still be running it. */
  | { readonly status: "stopped"; readonly reason: "stopped" | "deadline" }
  /**
   * The call is over the frame limit, or its params nest deeper than 64 levels, and was not
   * sent; the link stays usable.
   */
  | { readonly status: "refused"; readonly message: string }
  /**
   * The connection failed (closed, reset, a bad frame): {@link SyncLink.broken} says why, and
   * every later call answers the same. The call may have reached the host before it failed.
   */
  | { readonly status: "broken"; readonly message: string };

/** Spin this long on a fresh call before sleeping between reads: a quick host answers in it. */
const spinMs = 0.3;
/** Longest sleep between two reads once the spin is over. */
const maxSleepMs = 0.5;

/**
 * A connection to a host whose calls block the calling thread until they are answered, for a
 * worker thread that cannot yield to its event loop (a sandbox whose guest code waits for each
 * host call). Reads and writes go straight to the socket's descriptor, which the event loop no
 * longer reads: no event loop and no other thread on a call's path, and nothing read between
 * calls. A call waits by watching the socket briefly, then sleeping in short
 * slices, and checks `shouldStop` and the deadline throughout, so it never blocks beyond them.
 * Calls run one at a time; the answer of a call that stopped waiting is skipped when it arrives.
 * Never use it on a main thread: a call blocks the thread's event loop.
 */
export class SyncLink {
  readonly #socket: Socket;
  readonly #fd: number;
  readonly #decoder: FrameDecoder;
  readonly #maxFrameBytes: number;
  readonly #chunk = Buffer.allocUnsafe(64 * 1024);
  readonly #sleeper = new Int32Array(new SharedArrayBuffer(4));
  #frames: Frame[] = [];
  #nextId = 1;
  #broken: string | undefined;

  /** Use {@link openSyncLink}. */
  constructor(socket: Socket, maxFrameBytes: number) {
    const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    if (typeof fd !== "number" || fd < 0) {
      socket.destroy();
      throw new Error("SyncLink needs a socket with a file descriptor (Unix and loopback TCP)");
    }
    this.#socket = socket;
    this.#fd = fd;
    this.#maxFrameBytes = maxFrameBytes;
    this.#decoder = new FrameDecoder(maxFrameBytes);
  }

  /** Why the link is unusable, or undefined while it works. */
  get broken(): string | undefined {
    return this.#broken;
  }

  /**
   * Calls `method` with `paramsJson` (a serialised JSON object) and waits for its answer.
   * Never throws for the host or the connection: see {@link SyncCallOutcome}.
   */
  call(method: string, paramsJson: string, wait: SyncCallWait): SyncCallOutcome {
    // A destroyed socket's descriptor may already be reused by another file: never touch it.
    if (this.#broken === undefined && this.#socket.destroyed) {
      this.#broken = "the connection was closed";
    }
    if (this.#broken !== undefined) return { status: "broken", message: this.#broken };
    const id = this.#nextId++;
    if (nestsDeeperThan(paramsJson, maxParamsDepth)) {
      const message = `${method}: params nest deeper than ${maxParamsDepth} levels, the link's limit`;
      return { status: "refused", message };
    }
    const frame = callFrame(id, method, paramsJson);
    if (frame.length - 4 > this.#maxFrameBytes) {
      const message = `${method}: the call is ${frame.length - 4} bytes, over the link's limit of ${this.#maxFrameBytes}`;
      return { status: "refused", message };
    }
    const written = this.#write(frame, wait);
    if (written !== undefined) return written;
    const spinUntil = performance.now() + spinMs;
    let sleepMs = 0.05;
    for (;;) {
      const read = this.#read();
      if (typeof read === "string") return this.#fail(read);
      if (read > 0) {
        const answer = this.#answer(id);
        if (answer !== undefined) return answer;
        continue;
      }
      const stop = stopReason(wait);
      if (stop !== undefined) {
        this.#cancel(id);
        return { status: "stopped", reason: stop };
      }
      if (performance.now() < spinUntil) continue;
      Atomics.wait(this.#sleeper, 0, 0, sleepMs);
      sleepMs = Math.min(maxSleepMs, sleepMs * 2);
    }
  }

  /** Closes the connection. Idempotent. */
  close(): void {
    this.#broken ??= "the link was closed";
    this.#socket.destroy();
  }

  // Frames already read: the first answer to `id`; others (late answers to calls that stopped
  // waiting, pongs) are skipped.
  #answer(id: number): SyncCallOutcome | undefined {
    const frames = this.#frames;
    this.#frames = [];
    let outcome: SyncCallOutcome | undefined;
    for (const raw of frames) {
      let frame: ReturnType<typeof parseServerFrame>;
      try {
        frame = parseServerFrame(raw);
      } catch (error) {
        return this.#fail(error instanceof Error ? error.message : String(error));
      }
      if (frame.type === "bye")
        return this.#fail(`the host dropped the connection: ${frame.message}`);
      if (outcome !== undefined || frame.type === "welcome" || frame.id !== id) continue;
      if (frame.type === "result") outcome = { status: "result", result: frame.result };
      else if (frame.type === "error") {
        outcome = {
          status: "error",
          code: frame.error.code,
          message: frame.error.message,
          ...(frame.error.data === undefined ? {} : { data: frame.error.data }),
          completion: frame.started ? "complete" : "not_started",
        };
      }
    }
    return outcome;
  }

  // Bytes read into the decoder (0: none yet), or why the connection failed.
  #read(): number | string {
    let count: number;
    try {
      count = readSync(this.#fd, this.#chunk, 0, this.#chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" || code === "EWOULDBLOCK" || code === "EINTR") return 0;
      return `reading from the host failed: ${(error as Error).message}`;
    }
    if (count === 0) return "the host closed the connection";
    try {
      // Copied: the chunk buffer is reused by the next read.
      this.#frames.push(...this.#decoder.push(Buffer.from(this.#chunk.subarray(0, count))));
    } catch (error) {
      return error instanceof FrameViolation ? error.message : String(error);
    }
    return count;
  }

  // Undefined once all of `frame` is written; else how the call ended.
  #write(frame: Buffer, wait: SyncCallWait): SyncCallOutcome | undefined {
    let offset = 0;
    while (offset < frame.length) {
      try {
        offset += writeSync(this.#fd, frame, offset, frame.length - offset);
        continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN" && code !== "EWOULDBLOCK" && code !== "EINTR") {
          return this.#fail(`writing to the host failed: ${(error as Error).message}`);
        }
      }
      const stop = stopReason(wait);
      if (stop !== undefined) {
        // Half a frame on the wire cannot be taken back: the stream is unusable.
        if (offset > 0) return this.#fail("the call was stopped half-written");
        return { status: "stopped", reason: stop };
      }
      Atomics.wait(this.#sleeper, 0, 0, 0.2);
    }
    return undefined;
  }

  #cancel(id: number): void {
    const frame = cancelFrame(id);
    try {
      // Small enough to go in one write on a healthy socket; if not, the late answer is skipped.
      writeSync(this.#fd, frame, 0, frame.length);
    } catch {
      // The answer is skipped when it comes; a dead socket shows on the next call.
    }
  }

  #fail(message: string): SyncCallOutcome {
    this.#broken = message;
    this.#socket.destroy();
    return { status: "broken", message };
  }
}

/** Why a call stops waiting now, or undefined while it may go on. */
function stopReason(wait: SyncCallWait): "stopped" | "deadline" | undefined {
  if (wait.shouldStop()) return "stopped";
  return Date.now() >= wait.deadline ? "deadline" : undefined;
}

/**
 * Opens a {@link SyncLink} to the host `access` names: connects, authenticates and waits for the
 * welcome, asynchronously, then hands the connection over for blocking calls.
 * @throws {LinkError} as `LinkClient` connects: `CONNECT_FAILED`, `AUTH_FAILED`, `LINK_TIMEOUT`…
 */
export async function openSyncLink(
  access: LinkAccess,
  options: OpenSyncLinkOptions = {},
): Promise<SyncLink> {
  assertLoopbackEndpoint(access.endpoint);
  const { connection, welcome } = await openConnection({
    endpoint: access.endpoint,
    token: access.token,
    maxFrameBytes: access.maxFrameBytes,
    timeoutMs: options.timeoutMs ?? 5000,
    signal: options.signal,
  });
  return new SyncLink(connection.release(), Math.min(access.maxFrameBytes, welcome.maxFrameBytes));
}
