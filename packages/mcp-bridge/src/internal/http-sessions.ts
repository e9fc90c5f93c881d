// Stateful Streamable HTTP sessions: one McpServer and transport per session id, bounded in count
// (in all and per client), dropped when idle. A session answering a request (a running call) is
// busy; one that only holds a GET stream open is not, so a stream alone cannot pin a session.
// When a new session finds no room, a session that never made a call gives way at once, else the
// longest-idle session idle for at least the eviction minimum, whatever it did before: sessions
// opened and left, or used once and left, cannot lock others out.

import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import type { CancelledStreams } from "./cancelled-streams.ts";
import type { EarlyCancels } from "./early-cancels.ts";

/** One live session. */
export interface HttpSession {
  id: string;
  /**
   * Whom the per-client limit counts the session against (see {@link sessionClient}); undefined
   * for a client with no share of its own.
   */
  client: string | undefined;
  /** Requests it sent after `initialize` (tool calls, lists, pings). */
  calls: number;
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  /** When a request last arrived or was answered, or a stream opened or closed (ms since epoch). */
  lastActivity: number;
  /** Requests being answered (POST, DELETE): a session with one is busy. */
  openRequests: number;
  /** GET streams open (notifications outside any request). */
  openStreams: number;
  earlyCancels: EarlyCancels;
  cancelledStreams: CancelledStreams;
}

/** How full the table may get, and when a session may give way to a new one. */
export interface SessionLimits {
  maxSessions: number;
  /** Most sessions of one client (sessions whose `client` is undefined have no such limit). */
  maxPerClient: number;
  /** How long a session that made calls must have been idle to give way, in ms. */
  evictIdleMs: number;
}

/**
 * The key of the per-client limit: the label of the token a request presented, else the remote
 * address, except loopback, which every local client shares (undefined: no share of its own).
 */
export function sessionClient(
  tokenLabel: string | undefined,
  address: string,
  isLoopback: (address: string) => boolean,
): string | undefined {
  if (tokenLabel !== undefined) return `token ${tokenLabel}`;
  if (address === "" || isLoopback(address.replace(/^::ffff:/, ""))) return undefined;
  return `address ${address}`;
}

/** The session table with idle expiry. */
export class HttpSessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #idleMs: number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): HttpSession | undefined {
    return this.#sessions.get(id);
  }

  add(session: HttpSession): void {
    this.#sessions.set(session.id, session);
  }

  /** Forgets a session and closes its server (which aborts its in-flight requests). */
  async drop(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (session === undefined) return;
    this.#sessions.delete(id);
    await session.server.close().catch(() => {});
  }

  /**
   * Makes room for one more session of `client`, closing one session that may give way (first
   * among `client`'s own when it holds `maxPerClient`, then among all when there are
   * `maxSessions`). Returns which limit still leaves no room, or undefined.
   */
  makeRoom(
    client: string | undefined,
    limits: SessionLimits,
    now: number = Date.now(),
  ): "client" | "total" | undefined {
    if (client !== undefined) {
      const own = [...this.#sessions.values()].filter((session) => session.client === client);
      if (own.length >= limits.maxPerClient && !this.#evictOne(own, limits.evictIdleMs, now))
        return "client";
    }
    if (
      this.#sessions.size >= limits.maxSessions &&
      !this.#evictOne(this.#sessions.values(), limits.evictIdleMs, now)
    )
      return "total";
    return undefined;
  }

  /**
   * Closes the session of `candidates` that gives way: the longest-idle one that never made a
   * call, else the longest-idle one idle for `evictIdleMs` or more; never one answering a
   * request. False if none may go.
   */
  #evictOne(candidates: Iterable<HttpSession>, evictIdleMs: number, now: number): boolean {
    let unused: HttpSession | undefined;
    let idle: HttpSession | undefined;
    for (const session of candidates) {
      if (session.openRequests > 0) continue;
      if (session.calls === 0) {
        if (unused === undefined || session.lastActivity < unused.lastActivity) unused = session;
      } else if (now - session.lastActivity >= evictIdleMs) {
        if (idle === undefined || session.lastActivity < idle.lastActivity) idle = session;
      }
    }
    const leaving = unused ?? idle;
    if (leaving === undefined) return false;
    void this.drop(leaving.id);
    return true;
  }

  /**
   * Counts `response` against the session until it closes: as a request being answered, or for
   * a GET, as a stream (which does not make the session busy).
   */
  track(
    session: HttpSession,
    method: string,
    response: { once(event: "close", listener: () => void): unknown },
  ): void {
    const stream = method === "GET";
    if (stream) session.openStreams += 1;
    else session.openRequests += 1;
    session.lastActivity = Date.now();
    response.once("close", () => {
      if (stream) session.openStreams -= 1;
      else session.openRequests -= 1;
      session.lastActivity = Date.now();
    });
  }

  /** Starts the periodic idle sweep. */
  startSweeper(): void {
    const every = Math.max(50, Math.min(this.#idleMs / 2, 60_000));
    this.#sweeper = setInterval(() => this.sweep(), every);
    this.#sweeper.unref();
  }

  /**
   * Drops sessions with nothing open that were idle for longer than the idle limit; returns how
   * many went. A session holding a GET stream stays (its client is still there) until the table
   * needs its place.
   */
  sweep(now: number = Date.now()): number {
    let dropped = 0;
    for (const session of [...this.#sessions.values()]) {
      if (
        session.openRequests === 0 &&
        session.openStreams === 0 &&
        now - session.lastActivity > this.#idleMs
      ) {
        dropped += 1;
        void this.drop(session.id);
      }
    }
    return dropped;
  }

  /** Stops the sweep and closes every session. */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.keys()].map((id) => this.drop(id)));
  }
}
