import { CallScheduler, callError } from "./internal/call-scheduler.ts";
import { connectWithRetry } from "./internal/connect-with-retry.ts";
import { encodeCall } from "./internal/encode-call.ts";
import { bodyBytes } from "./internal/frame-codec.ts";
import type { CloseReason, FramedConnection } from "./internal/framed-connection.ts";
import { Heartbeat } from "./internal/heartbeat.ts";
import { endLinkCallSpan, startLinkCallSpan } from "./internal/link-call-span.ts";
import { openConnection } from "./internal/open-connection.ts";
import { type ExpiryCode, PendingCall } from "./internal/pending-call.ts";
import { cancelFrame, pingFrame, type ServerFrame } from "./internal/protocol.ts";
import type {
  AbandonedCall,
  LinkCallOptions,
  LinkClientOptions,
  LinkDisconnect,
  LinkState,
} from "./link-client-options.ts";
import { assertLoopbackEndpoint } from "./link-endpoint.ts";
import { LinkError } from "./link-error.ts";
import type { LinkErrorCode } from "./link-error-code.ts";
import type { LinkWelcome } from "./link-welcome.ts";
import type { LinkAccess } from "./sync-link.ts";

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
  readonly #options: LinkClientOptions;
  readonly #maxFrameBytes: number;
  readonly #heartbeat: Heartbeat | undefined;
  readonly #calls: CallScheduler;
  readonly #lifetime = new AbortController();
  readonly #listeners = new Set<(disconnect: LinkDisconnect) => void>();
  #connection: FramedConnection | undefined;
  #welcome: LinkWelcome | undefined;
  #connecting: Promise<LinkWelcome> | undefined;
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
    this.#options = options;
    this.#maxFrameBytes = options.maxFrameBytes ?? 16 * 1024 * 1024;
    this.#calls = new CallScheduler(options.maxQueue ?? 16);
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

  /**
   * What a worker thread of this process needs to open its own connection to the same host with
   * {@link openSyncLink}: the endpoint, the token and the frame limit. The token is a secret:
   * never send it out of the process.
   */
  access(): LinkAccess {
    const { endpoint, token } = this.#options;
    return { endpoint, token, maxFrameBytes: this.#maxFrameBytes };
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
    return this.#calls.abandonedCall;
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
        this.#calls.failQueued(asReason(error));
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
    const span = startLinkCallSpan(method);
    const promise = this.#call(method, params, options);
    return span === undefined ? promise : endLinkCallSpan(span, promise);
  }

  #call(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: LinkCallOptions,
  ): Promise<unknown> {
    const refuse = (code: LinkErrorCode, message: string): Promise<never> =>
      Promise.reject(new LinkError({ code, message, method, completion: "not_started" }));
    if (this.#closed !== undefined) return Promise.reject(this.#closedError(method));
    if (options.signal?.aborted) {
      return refuse("CANCELLED", `${method} was cancelled before it started`);
    }
    const busy = this.#calls.refusal(method);
    if (busy !== undefined) return refuse(busy.code, busy.message);
    const id = this.#nextId++;
    const encoded = encodeCall(id, method, params);
    if (!("frame" in encoded)) return refuse(encoded.code, encoded.message);
    const { frame } = encoded;
    const tooLarge = this.#tooLarge(method, frame);
    if (tooLarge !== undefined) return refuse("FRAME_TOO_LARGE", tooLarge);
    const call = new PendingCall({
      id,
      method,
      frame,
      timeoutMs: options.timeoutMs ?? this.#options.callTimeoutMs ?? 30_000,
      signal: options.signal,
      expire: (expired, code) => this.#expire(expired, code),
    });
    this.#calls.enqueue(call);
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
    this.#calls.connectionLost(closing);
    this.#calls.failQueued(closing);
    const connection = this.#connection;
    this.#connection = undefined;
    this.#welcome = undefined;
    connection?.destroy(closing);
    if (connection !== undefined && reason !== undefined) this.#notify(reason);
    await this.#connecting?.catch(() => undefined);
  }

  async #connectWithRetry(): Promise<LinkWelcome> {
    const { endpoint, token, reconnect } = this.#options;
    const { connection, welcome } = await connectWithRetry({
      open: () =>
        openConnection({
          endpoint,
          token,
          maxFrameBytes: this.#maxFrameBytes,
          timeoutMs: this.#options.connectTimeoutMs ?? 5000,
          signal: this.#lifetime.signal,
        }),
      attempts: Math.max(1, reconnect?.attempts ?? 3),
      initialDelayMs: reconnect?.initialDelayMs ?? 100,
      maxDelayMs: reconnect?.maxDelayMs ?? 2000,
      waitFirst: this.#lost,
      signal: this.#lifetime.signal,
    });
    if (this.#closed !== undefined) {
      connection.destroy(this.#closed);
      throw this.#closedError();
    }
    this.#attach(connection, welcome);
    return welcome;
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
    if (this.#closed !== undefined || !this.#calls.hostFree) return;
    const connection = this.#connection;
    if (!this.#calls.hasQueued) {
      if (connection !== undefined) this.#heartbeat?.idle();
      return;
    }
    if (connection === undefined) {
      // A failed connect fails the queued calls itself.
      if (this.#connecting === undefined) this.connect().catch(() => undefined);
      return;
    }
    const next = this.#calls.takeNext() as PendingCall;
    const tooLarge = this.#tooLarge(next.method, next.frame);
    if (tooLarge !== undefined) {
      next.reject(callError(next, { code: "FRAME_TOO_LARGE", message: tooLarge }, "not_started"));
      this.#pump();
      return;
    }
    this.#heartbeat?.busy();
    this.#calls.markSent(next);
    connection.send(next.frame);
  }

  #expire(call: PendingCall, code: ExpiryCode): void {
    if (this.#calls.expire(call, code)) this.#connection?.send(cancelFrame(call.id));
  }

  #onFrame(frame: ServerFrame): void {
    if (frame.type === "pong") {
      const loop = this.#welcome?.loop ?? "blocking";
      if (this.#heartbeat?.pong(frame, loop) !== true) this.#droppedFrames++;
    } else if (frame.type === "result" || frame.type === "error") {
      if (this.#calls.answer(frame)) this.#pump();
      else this.#droppedFrames++;
    } else {
      this.#droppedFrames++; // a second welcome
    }
  }

  #onClose(connection: FramedConnection, reason: CloseReason): void {
    if (this.#connection !== connection) return;
    this.#lost = true;
    this.#connection = undefined;
    this.#welcome = undefined;
    this.#heartbeat?.busy();
    this.#calls.connectionLost(reason);
    this.#pump(); // calls still queued reconnect, within the policy
    this.#notify(reason);
  }

  #notify(reason: LinkDisconnect): void {
    for (const listener of this.#listeners) {
      listener({ code: reason.code, message: reason.message });
    }
  }

  /** Why `frame` may not be sent: over our limit or the host's. */
  #tooLarge(method: string, frame: Buffer): string | undefined {
    const hostLimit = this.#welcome?.maxFrameBytes ?? Number.POSITIVE_INFINITY;
    const limit = Math.min(this.#maxFrameBytes, hostLimit);
    if (bodyBytes(frame) <= limit) return undefined;
    const whose = limit === this.#maxFrameBytes ? "the limit" : "the host's limit";
    return `${method}: the call is ${bodyBytes(frame)} bytes, over ${whose} of ${limit}`;
  }

  #closedError(method?: string): LinkError {
    const reason = this.#closed ?? { code: "LINK_CLOSED", message: "The link was closed" };
    const message =
      method === undefined ? reason.message : `${method} was not started: ${reason.message}`;
    return new LinkError({ code: reason.code, message, method, completion: "not_started" });
  }
}

/** A connect failure as the reason queued calls fail. */
function asReason(error: unknown): CloseReason {
  if (error instanceof LinkError) return { code: error.code, message: error.message, cause: error };
  return { code: "CONNECT_FAILED", message: String(error), cause: error };
}
