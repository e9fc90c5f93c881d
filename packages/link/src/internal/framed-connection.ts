import type { Socket } from "node:net";
import type { LinkErrorCode } from "../link-error-code.ts";
import { FrameDecoder, FrameViolation } from "./frame-codec.ts";
import { parseServerFrame, type ServerFrame } from "./protocol.ts";

/** The part of Node's stream handle that stops its reads. */
interface StreamHandle {
  reading: boolean;
  readStop(): number;
}

/** Why a connection ended. */
export interface CloseReason {
  readonly code: LinkErrorCode;
  readonly message: string;
  /** The host refused our last frame without acting on it (its `bye` said so). */
  readonly refusedFrame?: boolean | undefined;
  readonly cause?: unknown;
}

/** Where a connection's frames and its end go. */
export interface ConnectionHandlers {
  frame(frame: ServerFrame): void;
  close(reason: CloseReason): void;
}

/** Codes of a host's `bye` that say it refused a frame of ours without acting on it. */
const refusals = new Set(["FRAME_TOO_LARGE", "BAD_FRAME", "PROTOCOL_MISMATCH"]);

/**
 * A socket that speaks frames. Any frame that breaks the format or the protocol drops the
 * connection with that reason; `close` is reported exactly once, whoever ends it.
 */
export class FramedConnection {
  readonly #socket: Socket;
  readonly #decoder: FrameDecoder;
  #handlers: ConnectionHandlers;
  #closed = false;
  #error: Error | undefined;

  constructor(socket: Socket, maxFrameBytes: number, handlers: ConnectionHandlers) {
    this.#socket = socket;
    this.#decoder = new FrameDecoder(maxFrameBytes);
    this.#handlers = handlers;
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", (error) => {
      this.#error = error;
    });
    socket.on("close", () => {
      const detail = this.#error === undefined ? "" : `: ${this.#error.message}`;
      this.#finish({
        code: "HOST_GONE",
        message: `The connection to the host closed${detail}`,
        cause: this.#error,
      });
    });
  }

  /** Replaces the handlers (after the handshake). */
  set handlers(handlers: ConnectionHandlers) {
    this.#handlers = handlers;
  }

  /** True once the connection has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Writes one encoded frame (ignored once closed). */
  send(frame: Buffer): void {
    if (!this.#closed) this.#socket.write(frame);
  }

  /**
   * Hands over the socket for synchronous use of its file descriptor: the event loop stops
   * reading it for good (a paused stream alone would keep filling its buffer, and would close the
   * descriptor when the peer hangs up). The connection counts as closed from then on; its close
   * handler is not called. @throws {Error} when bytes were already read past the last frame.
   */
  release(): Socket {
    if (this.#decoder.buffered > 0 || this.#socket.readableLength > 0) {
      throw new Error("the connection has unread bytes and cannot be handed over");
    }
    this.#closed = true;
    this.#socket.removeAllListeners("data");
    this.#socket.pause();
    const handle = (this.#socket as unknown as { _handle?: StreamHandle | null })._handle;
    if (handle === undefined || handle === null) {
      throw new Error("the connection's socket has no handle to hand over");
    }
    handle.reading = false;
    handle.readStop();
    return this.#socket;
  }

  /** Ends the connection with `reason`. */
  destroy(reason: CloseReason): void {
    this.#finish(reason);
  }

  #onData(chunk: Buffer): void {
    if (this.#closed) return;
    let frames: ServerFrame[];
    try {
      frames = this.#decoder.push(chunk).map(parseServerFrame);
    } catch (error) {
      if (!(error instanceof FrameViolation)) throw error;
      this.#finish({ code: error.code, message: `The host sent a bad frame: ${error.message}` });
      return;
    }
    for (const frame of frames) {
      if (this.#closed) return;
      if (frame.type === "bye") {
        const refused = refusals.has(frame.code);
        this.#finish({
          code: refused ? (frame.code as LinkErrorCode) : "HOST_GONE",
          message: `The host dropped the connection (${frame.code}): ${frame.message}`,
          refusedFrame: refused,
        });
        return;
      }
      this.#handlers.frame(frame);
    }
  }

  #finish(reason: CloseReason): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.destroy();
    this.#handlers.close(reason);
  }
}
