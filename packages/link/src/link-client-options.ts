import type { CallCompletion } from "./call-completion.ts";
import type { LinkEndpoint } from "./link-endpoint.ts";
import type { LinkErrorCode } from "./link-error-code.ts";

/** Reconnect policy: how often a disconnected link tries again before its calls fail. */
export interface LinkReconnectOptions {
  /** Connection attempts per (re)connect, the first included. Default 3. */
  attempts?: number | undefined;
  /** Delay before the second attempt; doubles after each failure. Default 100 ms. */
  initialDelayMs?: number | undefined;
  /** Cap on the delay between attempts. Default 2000 ms. */
  maxDelayMs?: number | undefined;
}

/** Heartbeat settings (see {@link LinkClient} for what counts as unresponsive). */
export interface LinkHeartbeatOptions {
  /** Idle time between pings. Default 2000 ms. */
  intervalMs?: number | undefined;
  /** How long a ping may go unanswered. Default 10000 ms. */
  timeoutMs?: number | undefined;
  /** Pump-style hosts: how long the main thread may go without pumping while idle. Default
   * 30000 ms. */
  pumpStallMs?: number | undefined;
}

/** Options for {@link LinkClient}. */
export interface LinkClientOptions {
  /** Where the host listens (TCP only on loopback). */
  endpoint: LinkEndpoint;
  /** The host's per-launch token. */
  token: string;
  /** Largest frame body accepted or sent, in bytes. Default 16 MiB. The host's own limit (from
   * its welcome) also bounds what is sent. */
  maxFrameBytes?: number | undefined;
  /** Bound on one connection attempt, handshake included. Default 5000 ms. */
  connectTimeoutMs?: number | undefined;
  /** Default deadline of a call, from `call()` to its answer. Default 30000 ms. */
  callTimeoutMs?: number | undefined;
  /** Calls that may wait behind the one in flight. Default 16. */
  maxQueue?: number | undefined;
  /** Reconnect policy. */
  reconnect?: LinkReconnectOptions | undefined;
  /** Heartbeat settings, or `false` for none. */
  heartbeat?: LinkHeartbeatOptions | false | undefined;
}

/** Options for {@link LinkClient.call}. */
export interface LinkCallOptions {
  /** Deadline from now to the answer, queueing and connecting included. */
  timeoutMs?: number | undefined;
  /** Aborting it cancels the call: a queued one never starts, a running one is asked to stop. */
  signal?: AbortSignal | undefined;
}

/** A call whose caller stopped waiting (deadline or cancel) while the host may still run it. */
export interface AbandonedCall {
  /** The call's id on the link. */
  readonly id: number;
  /** The method called. */
  readonly method: string;
  /** Resolves when the host answers it (`complete`, or `not_started` when it had not begun),
   * or with `unknown` when the connection ends first. */
  readonly settled: Promise<CallCompletion>;
}

/** Where a link is: `disconnected` (connects on the next call), `connecting`, `connected`, or
 * `closed` for good. */
export type LinkState = "disconnected" | "connecting" | "connected" | "closed";

/** Why a connection ended, as told to {@link LinkClient.onDisconnect} listeners. */
export interface LinkDisconnect {
  readonly code: LinkErrorCode;
  readonly message: string;
}
