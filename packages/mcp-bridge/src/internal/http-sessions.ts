// Stateful Streamable HTTP sessions: one McpServer and transport per session id, bounded in count
// (in all and per client address), dropped when idle. A session with an open response (a running
// call, an SSE stream) is not idle. When a new session finds no room, the longest-idle session
// that never made a call makes way, so sessions opened and left unused cannot lock others out.

import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import type { CancelledStreams } from "./cancelled-streams.ts";
import type { EarlyCancels } from "./early-cancels.ts";

/** One live session. */
export interface HttpSession {
  id: string;
  /** The client's address (the socket's remote address). */
  address: string;
  /** Requests it sent after `initialize` (tool calls, lists, pings). */
  calls: number;
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  lastActivity: number;
  openResponses: number;
  earlyCancels: EarlyCancels;
  cancelledStreams: CancelledStreams;
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
   * Makes room for one more session from `address`, closing the longest-idle session that never
   * made a call (first among `address`'s own when it holds `maxPerClient`, then among all when
   * there are `maxSessions`). Returns which limit still leaves no room, or undefined.
   */
  makeRoom(
    address: string,
    limits: { maxSessions: number; maxPerClient: number },
  ): "client" | "total" | undefined {
    const own = [...this.#sessions.values()].filter((session) => session.address === address);
    if (own.length >= limits.maxPerClient && !this.#evictUnused(own)) return "client";
    if (this.#sessions.size >= limits.maxSessions && !this.#evictUnused(this.#sessions.values()))
      return "total";
    return undefined;
  }

  /** Closes the longest-idle session of `candidates` that never made a call; false if none. */
  #evictUnused(candidates: Iterable<HttpSession>): boolean {
    let oldest: HttpSession | undefined;
    for (const session of candidates) {
      if (session.calls > 0) continue;
      if (oldest === undefined || session.lastActivity < oldest.lastActivity) oldest = session;
    }
    if (oldest === undefined) return false;
    void this.drop(oldest.id);
    return true;
  }

  /** Counts an open response against the session until `response` closes. */
  track(
    session: HttpSession,
    response: { once(event: "close", listener: () => void): unknown },
  ): void {
    session.openResponses += 1;
    session.lastActivity = Date.now();
    response.once("close", () => {
      session.openResponses -= 1;
      session.lastActivity = Date.now();
    });
  }

  /** Starts the periodic idle sweep. */
  startSweeper(): void {
    const every = Math.max(50, Math.min(this.#idleMs / 2, 60_000));
    this.#sweeper = setInterval(() => this.sweep(), every);
    this.#sweeper.unref();
  }

  /** Drops sessions idle for longer than the idle limit; returns how many went. */
  sweep(now: number = Date.now()): number {
    let dropped = 0;
    for (const session of [...this.#sessions.values()]) {
      if (session.openResponses === 0 && now - session.lastActivity > this.#idleMs) {
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
