import type { LinkAccess } from "@dcc/link";

/**
 * What happened to a linked host, as {@link LinkedConnection.onEvent} tells it (the link's own
 * `onDisconnect` belongs to one link and is renewed at each restart; these events are not):
 * - `exit`: the host went away (it exited, stopped answering, or was ended for a call that would
 *   not stop); `reason` says which, in the words the next command's notice uses;
 * - `restart`: a new host is up (`launches` counts every launch or attach, the first included);
 * - `unavailable`: restarts failed or crashed too often; the next try is in `retryInMs`.
 */
export type LinkedHostEvent =
  | { readonly type: "exit"; readonly reason: string }
  | { readonly type: "restart"; readonly launches: number }
  | { readonly type: "unavailable"; readonly reason: string; readonly retryInMs: number };

/** What a sandbox thread needs to reach the host on its own connection (see the dispatch lane). */
export interface LinkedLaneAccess {
  /** The link's endpoint and token. */
  readonly access: LinkAccess;
  /** Changes whenever the host is replaced, so a lane opened to the old one is not reused. */
  readonly key: string;
  /** Set once this host is gone (see `DispatchLane.closed`): its lanes stop at once. */
  readonly closed: Int32Array;
}

/**
 * One DCC behind `@dcc/link`, launched and supervised ({@link LinkedHost}) or attached
 * ({@link LinkedAttachment}). Calls fail with `CommandError`s a script can catch.
 */
export interface LinkedConnection {
  /** Launches or attaches; resolves once the link is up. */
  start(signal?: AbortSignal): Promise<void>;
  /**
   * Calls `method` of the host for the script command `command` (the name errors carry).
   * @throws {CommandError} with the host's code (a `HandlerError`'s) or the link's.
   */
  call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown>;
  /**
   * What a sandbox thread needs to open its own connection to the host; undefined while it is
   * not ready, or has a restart the next command must report.
   */
  laneAccess(): LinkedLaneAccess | undefined;
  /** Listens to {@link LinkedHostEvent}s; returns the function that stops listening. */
  onEvent(listener: (event: LinkedHostEvent) => void): () => void;
  /** Releases the connection (and ends a launched host). Final. */
  close(): Promise<void>;
  /**
   * The id of the process that was launched (bubblewrap's under the OS sandbox, see
   * `LinkedHost.pid`), or the attached DCC's from its connection file; undefined when unknown.
   */
  readonly pid: number | undefined;
  /** How many times the host was launched or attached, the first included. */
  readonly launches: number;
  /** A launched host's private session folder (socket, `TMPDIR`); undefined when attached. */
  readonly sessionDir: string | undefined;
  /** Whether a launched host runs in `@dcc/link`'s OS sandbox (false when attached; undefined before a start). */
  readonly sandboxed: boolean | undefined;
  /** The end of what a launched host printed ("" when attached). */
  readonly output: string;
}
