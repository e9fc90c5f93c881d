import type { CallCompletion } from "./call-completion.ts";
import { backoffDelay, sleep } from "./internal/backoff.ts";
import { bodyBytes } from "./internal/frame-codec.ts";
import type { CloseReason, FramedConnection } from "./internal/framed-connection.ts";
import { Heartbeat } from "./internal/heartbeat.ts";
import { openConnection } from "./internal/open-connection.ts";
import { type ExpiryCode, PendingCall } from "./internal/pending-call.ts";
import { callFrame, cancelFrame, pingFrame, type ServerFrame } from "./internal/protocol.ts";
import type {
  AbandonedCall,
  LinkCallOptions,
  LinkClientOptions,
  LinkDisconnect,
  LinkState,
} from "./link-client-options.ts";
import { assertLoopbackEndpoint, type LinkEndpoint } from "./link-endpoint.ts";
import { LinkError } from "./link-error.ts";
import type { LinkErrorCode } from "./link-error-code.ts";
import type { LinkWelcome } from "./link-welcome.ts";
import { RemoteCallError } from "./remote-call-error.ts";

type Abandoned = AbandonedCall & { settle(completion: CallCompletion): void };

/**
 * The Node end of the link to one DCC host. Calls run one at a time (a DCC has one main thread):
 * one in flight, up to `maxQueue` waiting. A call whose caller stopped waiting (deadline or
 * signal) is abandoned: the host is asked to cancel it, and until the host answers it, new calls
 * fail at once with `HOST_BUSY` (calls already queued too), since they would wait for work
 * nobody wants. Every failure is a {@link LinkError} saying what the call did on the host.
 *
 * The link connects on first use and again after losing its connection (bounded attempts, with
 * backoff). While idle it sends heartbeats; see {@link LinkHeartbeatOptions}.
 */
export class LinkClient {
  readonly #endpoint: LinkEndpoint;
  readonly #token: string;
  readonly #maxFrameBytes: number;
  readonly #connectTimeoutMs: number;
  readonly #callTimeoutMs: number;
  readonly #maxQueue: number;
  readonly #attempts: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #heartbeat: Heartbeat | undefined;
  readonly #lifetime = new AbortController();
  readonly #queue: PendingCall[] = [];
  readonly #listeners = new Set<(disconnect: LinkDisconnect) => void>();
  #connection: FramedConnection | undefined;
  #welcome: LinkWelcome | undefined;
  #connecting: Promise<LinkWelcome> | undefined;
  #inFlight: PendingCall | undefined;
  #abandoned: Abandoned | undefined;
  #closed: CloseReason | undefined;
  #nextId = 1;
  #droppedFrames = 0;
  #lost = false;

  /** @throws {LinkError} `NOT_LOOPBACK` for an endpoint that is not loopback. */
  constructor(options: LinkClientOptions) {
    assertLoopbackEndpoint(options.endpoint);
    if (typeof options.token !== "string" || options.token.length === 0) {
      throw new TypeError("LinkClient needs the host's token");
    }
    this.#endpoint = options.endpoint;
    this.#token = options.token;
    this.#maxFrameBytes = options.maxFrameBytes ?? 16 * 1024 * 1024;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.#callTimeoutMs = options.callTimeoutMs ?? 30_000;
    this.#maxQueue = options.maxQueue ?? 16;
    this.#attempts = Math.max(1, options.reconnect?.attempts ?? 3);
    this.#initialDelayMs = options.reconnect?.initialDelayMs ?? 100;
    this.#maxDelayMs = options.reconnect?.maxDelayMs ?? 2000;
    const heartbeat = options.heartbeat;
    if (heartbeat !== false) {
      this.#heartbeat = new Heartbeat({
        intervalMs: heartbeat?.intervalMs ?? 2000,
        timeoutMs: heartbeat?.timeoutMs ?? 10_000,
        pumpStallMs: heartbeat?.pumpStallMs ?? 30_000,
        nextId: () => this.#nextId++,
        send: (id) => this.#connection?.send(pingFrame(id)),
        unresponsive: (message) =>
          this.#connection?.destroy({ code: "HOST_UNRESPONSIVE", message }),
      });
    }
  }

  /** Where the link is now. */
  get state(): LinkState {
    if (this.#closed !== undefined) return "closed";
    if (this.#connection !== undefined) return "connected";
    return this.#connecting === undefined ? "disconnected" : "connecting";
  }

  /** The host's welcome on the current connection. */
  get welcome(): LinkWelcome | undefined {
    return this.#welcome;
  }

  /** The abandoned call that still holds the host, if any. */
  get abandonedCall(): AbandonedCall | undefined {
    const abandoned = this.#abandoned;
    return abandoned && { id: abandoned.id, method: abandoned.method, settled: abandoned.settled };
  }

  /** Frames dropped because they answered nothing we wait for (unknown ids). */
  get droppedFrames(): number {
    return this.#droppedFrames;
  }

  /**
   * Connects now (calls also connect on demand), with the reconnect policy.
   * @throws {LinkError} `CONNECT_FAILED`, `AUTH_FAILED`, `LINK_TIMEOUT`, `LINK_CLOSED`, ...
   */
  connect(): Promise<LinkWelcome> {
    if (this.#closed !== undefined) return Promise.reject(this.#closedError());
    if (this.#connection !== undefined && this.#welcome !== undefined) {
      return Promise.resolve(this.#welcome);
    }
    this.#connecting ??= this.#connectWithRetry().then(
      (welcome) => {
        this.#connecting = undefined;
        this.#pump(); // the connection may have been lost already
        return welcome;
      },
      (error: unknown) => {
        this.#connecting = undefined;
        this.#failQueued(error);
        throw error;
      },
    );
    return this.#connecting;
  }

  /**
   * Calls `method` on the host with `params` (a JSON object) and resolves with its result.
   * @throws {LinkError} with `completion`: `HOST_BUSY`, `LINK_TIMEOUT`, `CANCELLED`, `HOST_GONE`,
   *   `FRAME_TOO_LARGE`, `BAD_FRAME`, `LINK_CLOSED`, connect failures; {@link RemoteCallError}
   *   when the host's handler failed.
   */
  call(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: LinkCallOptions = {},
  ): Promise<unknown> {
    const refuse = (code: LinkErrorCode, message: string): Promise<never> =>
      Promise.reject(new LinkError({ code, message, method, completion: "not_started" }));
    if (this.#closed !== undefined) return Promise.reject(this.#closedError(method));
    if (options.signal?.aborted)
      return refuse("CANCELLED", `${method} was cancelled before it started`);
    const abandoned = this.#abandoned;
    if (abandoned !== undefined) {
      const message = `${method} was not started: the host is still running ${abandoned.method} (call ${abandoned.id}), whose caller stopped waiting`;
      return refuse("HOST_BUSY", message);
    }
    if (this.#queue.length >= this.#maxQueue) {
      return refuse("HOST_BUSY", `${method} was not started: ${this.#maxQueue} calls already wait`);
    }
    let paramsJson: string | undefined;
    try {
      paramsJson = JSON.stringify(params);
    } catch (error) {
      return refuse("BAD_FRAME", `${method}: params are not JSON-serializable (${String(error)})`);
    }
    if (paramsJson === undefined || !paramsJson.startsWith("{")) {
      return refuse("BAD_FRAME", `${method}: params must be a JSON object`);
    }
    const id = this.#nextId++;
    const frame = callFrame(id, method, paramsJson);
    const limit = this.#sendLimit();
    if (bodyBytes(frame) > limit) {
      return refuse(
        "FRAME_TOO_LARGE",
        `${method}: the call is ${bodyBytes(frame)} bytes, over the limit of ${limit}`,
      );
    }
    const timeoutMs = options.timeoutMs ?? this.#callTimeoutMs;
    const call = new PendingCall({
      id,
      method,
      frame,
      timeoutMs,
      signal: options.signal,
      expire: (expired, code) => this.#expire(expired, code),
    });
    this.#queue.push(call);
    this.#pump();
    return call.promise;
  }

  /** Listens for lost connections (host gone, unresponsive, protocol errors); returns a
   * disposer. A {@link LinkClient.close} with a reason counts when a connection was open; a
   * plain `close()` does not. Listeners must not throw. */
  onDisconnect(listener: (disconnect: LinkDisconnect) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Closes the link for good: queued calls fail `not_started`, a call in flight `unknown`, with
   * `reason`'s code (default `LINK_CLOSED`).
   */
  async close(reason?: LinkDisconnect): Promise<void> {
    if (this.#closed !== undefined) return;
    const closing: CloseReason = reason ?? { code: "LINK_CLOSED", message: "The link was closed" };
    this.#closed = closing;
    this.#lifetime.abort();
    this.#heartbeat?.stop();
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) inFlight.reject(this.#callError(inFlight, closing, "unknown"));
    this.#abandoned?.settle("unknown");
    this.#abandoned = undefined;
    for (const call of this.#queue.splice(0)) {
      call.reject(this.#callError(call, closing, "not_started"));
    }
    const connection = this.#connection;
    this.#connection = undefined;
    this.#welcome = undefined;
    connection?.destroy(closing);
    if (connection !== undefined && reason !== undefined) {
      for (const listener of this.#listeners)
        listener({ code: reason.code, message: reason.message });
    }
    await this.#connecting?.catch(() => undefined);
  }

  async #connectWithRetry(): Promise<LinkWelcome> {
    let failure: unknown;
    // After a lost connection even the first attempt waits: a dying host still accepts for a
    // moment, and its owner usually learns of the exit within that delay.
    const waitFirst = this.#lost;
    for (let attempt = 0; attempt < this.#attempts; attempt++) {
      if (attempt > 0 || waitFirst) {
        const step = waitFirst ? attempt : attempt - 1;
        await sleep(
          backoffDelay(step, this.#initialDelayMs, this.#maxDelayMs),
          this.#lifetime.signal,
        );
      }
      if (this.#closed !== undefined) throw this.#closedError();
      try {
        const { connection, welcome } = await openConnection({
          endpoint: this.#endpoint,
          token: this.#token,
          maxFrameBytes: this.#maxFrameBytes,
          timeoutMs: this.#connectTimeoutMs,
          signal: this.#lifetime.signal,
        });
        if (connection.closed) continue; // lost right after the welcome: try again
        this.#attach(connection, welcome);
        return welcome;
      } catch (error) {
        failure = error;
        const code = error instanceof LinkError ? error.code : undefined;
        // Retrying cannot fix a wrong token or protocol, nor reopen a closed link.
        if (code === "AUTH_FAILED" || code === "PROTOCOL_MISMATCH" || code === "LINK_CLOSED") {
          throw error;
        }
      }
    }
    throw (
      failure ??
      new LinkError({
        code: "HOST_GONE",
        message: "The host went away while connecting",
        completion: "not_started",
      })
    );
  }

  #attach(connection: FramedConnection, welcome: LinkWelcome): void {
    this.#lost = false;
    this.#connection = connection;
    this.#welcome = welcome;
    connection.handlers = {
      frame: (frame) => this.#onFrame(frame),
      close: (reason) => this.#onClose(connection, reason),
    };
    this.#pump();
  }

  /** Sends the next queued call when nothing holds the host; connects first if needed. */
  #pump(): void {
    if (this.#closed !== undefined || this.#inFlight !== undefined) return;
    if (this.#abandoned !== undefined) return;
    const next = this.#queue[0];
    const connection = this.#connection;
    if (next === undefined) {
      if (connection !== undefined) this.#heartbeat?.idle();
      return;
    }
    if (connection === undefined) {
      // A failed connect fails the queued calls itself.
      if (this.#connecting === undefined) this.connect().catch(() => undefined);
      return;
    }
    this.#queue.shift();
    const limit = this.#sendLimit();
    if (bodyBytes(next.frame) > limit) {
      const message = `${next.method}: the call is ${bodyBytes(next.frame)} bytes, over the host's limit of ${limit}`;
      next.reject(this.#callError(next, { code: "FRAME_TOO_LARGE", message }, "not_started"));
      this.#pump();
      return;
    }
    this.#heartbeat?.busy();
    next.state = "sent";
    this.#inFlight = next;
    connection.send(next.frame);
  }

  #expire(call: PendingCall, code: ExpiryCode): void {
    const what = code === "LINK_TIMEOUT" ? `timed out after ${call.timeoutMs} ms` : "was cancelled";
    if (call.state === "queued") {
      const index = this.#queue.indexOf(call);
      if (index !== -1) this.#queue.splice(index, 1);
      const reason = { code, message: `${call.method} ${what} before it started` };
      call.reject(this.#callError(call, reason, "not_started"));
      return;
    }
    if (this.#inFlight !== call) return;
    this.#inFlight = undefined;
    this.#connection?.send(cancelFrame(call.id));
    let settle!: (completion: CallCompletion) => void;
    const settled = new Promise<CallCompletion>((resolve) => {
      settle = resolve;
    });
    this.#abandoned = { id: call.id, method: call.method, settled, settle };
    const message = `${call.method} ${what}; the host was asked to cancel it and may still be running it`;
    call.reject(this.#callError(call, { code, message }, "unknown"));
    for (const waiting of this.#queue.splice(0)) {
      const busy = `${waiting.method} was not started: the host is still running ${call.method}, whose caller stopped waiting`;
      waiting.reject(this.#callError(waiting, { code: "HOST_BUSY", message: busy }, "not_started"));
    }
  }

  #onFrame(frame: ServerFrame): void {
    if (frame.type === "pong") {
      const loop = this.#welcome?.loop ?? "blocking";
      if (this.#heartbeat?.pong(frame, loop) !== true) this.#droppedFrames++;
      return;
    }
    if (frame.type !== "result" && frame.type !== "error") {
      this.#droppedFrames++; // a second welcome
      return;
    }
    const inFlight = this.#inFlight;
    if (inFlight !== undefined && frame.id === inFlight.id) {
      this.#inFlight = undefined;
      if (frame.type === "result") inFlight.resolve(frame.result);
      else {
        inFlight.reject(
          new RemoteCallError({
            method: inFlight.method,
            callId: inFlight.id,
            remoteCode: frame.error.code,
            remoteMessage: frame.error.message,
            remoteType: frame.error.type,
            remoteData: frame.error.data,
            completion: frame.started ? "complete" : "not_started",
          }),
        );
      }
      this.#pump();
      return;
    }
    const abandoned = this.#abandoned;
    if (abandoned !== undefined && frame.id === abandoned.id) {
      this.#abandoned = undefined;
      abandoned.settle(frame.type === "error" && !frame.started ? "not_started" : "complete");
      this.#pump();
      return;
    }
    this.#droppedFrames++;
  }

  #onClose(connection: FramedConnection, reason: CloseReason): void {
    if (this.#connection !== connection) return;
    this.#lost = true;
    this.#connection = undefined;
    this.#welcome = undefined;
    this.#heartbeat?.busy();
    const inFlight = this.#inFlight;
    this.#inFlight = undefined;
    if (inFlight !== undefined) {
      const completion = reason.refusedFrame === true ? "not_started" : "unknown";
      inFlight.reject(this.#callError(inFlight, reason, completion));
    }
    this.#abandoned?.settle("unknown");
    this.#abandoned = undefined;
    this.#pump(); // calls still queued reconnect, within the policy
    for (const listener of this.#listeners)
      listener({ code: reason.code, message: reason.message });
  }

  #failQueued(error: unknown): void {
    const reason: CloseReason =
      error instanceof LinkError
        ? { code: error.code, message: error.message, cause: error }
        : { code: "CONNECT_FAILED", message: String(error), cause: error };
    for (const call of this.#queue.splice(0)) {
      call.reject(this.#callError(call, reason, "not_started"));
    }
  }

  #sendLimit(): number {
    return Math.min(this.#maxFrameBytes, this.#welcome?.maxFrameBytes ?? Number.POSITIVE_INFINITY);
  }

  #callError(call: PendingCall, reason: CloseReason, completion: CallCompletion): LinkError {
    const message = reason.message.startsWith(call.method)
      ? reason.message
      : `${call.method}: ${reason.message}`;
    return new LinkError({
      code: reason.code,
      message,
      completion,
      method: call.method,
      callId: call.id,
      cause: reason.cause,
    });
  }

  #closedError(method?: string): LinkError {
    const reason = this.#closed ?? { code: "LINK_CLOSED", message: "The link was closed" };
    const message =
      method === undefined ? reason.message : `${method} was not started: ${reason.message}`;
    return new LinkError({ code: reason.code, message, method, completion: "not_started" });
  }
}
