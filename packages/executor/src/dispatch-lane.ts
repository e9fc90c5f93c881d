import type { ExecuteCompletion } from "./execute-result.ts";

/**
 * A way for the sandbox thread to run some host commands itself, without sending each call
 * through the main thread: for a host reached over a socket (a DCC process), the sandbox opens
 * its own connection and calls the host directly, which saves two thread hand-offs per call.
 * The lane's module runs in the sandbox's worker thread, never in the guest.
 *
 * Only commands that are safe to run twice belong on a lane (reads): when the lane breaks (its
 * connection failed, perhaps after the call reached the host), the call is made again through
 * the main thread, whose handler then reports what happened to the host. A lane command's handler is not called for calls the
 * lane answers, so the lane must answer exactly as the handler would.
 */
export interface DispatchLane {
  /**
   * URL of an ES module whose `openDispatchLane` export is an {@link OpenDispatchLane}. It is
   * imported in the sandbox thread.
   */
  readonly module: string;
  /** Structured-cloneable data for `openDispatchLane`: where the host is, how to authenticate. */
  readonly data: unknown;
  /** Names of the commands the lane runs; every other command goes through the main thread. */
  readonly commands: readonly string[];
  /**
   * Identifies the host the lane reaches (a process id, an endpoint): a sandbox thread keeps an
   * open lane for later scripts while the key stays the same, and opens a new one when it
   * changes (the host restarted).
   */
  readonly key: string;
  /**
   * Set (to a value other than 0) by the adapter once the host this lane reaches is no longer
   * its host: it exited, stopped answering or was closed, as the adapter saw it. A host can
   * outlive the process the adapter watches (a wrapper such as bubblewrap was killed first) and
   * still answer on the lane's connection: the sandbox thread reads this before each lane call
   * and, once set, closes the lane and makes the call through the main thread, which reports
   * what happened. Backed by a `SharedArrayBuffer`, so the adapter's store is seen at once.
   */
  readonly closed?: Int32Array | undefined;
}

/** How a {@link DispatchLaneConnection.call} ended. */
export type DispatchLaneReply =
  /** The command's value, as its handler would have returned it. */
  | { readonly status: "value"; readonly value: unknown }
  /** The command failed, as its handler would have thrown a `CommandError` with these facts. */
  | {
      readonly status: "error";
      readonly code: string;
      readonly message: string;
      readonly completion: ExecuteCompletion;
      readonly data?: unknown;
    }
  /** `shouldStop` said stop (the script was cancelled or timed out) before the answer came. */
  | { readonly status: "stopped" }
  /** The lane does not take this call (its arguments, its size): the main thread makes it, and the lane stays open. */
  | { readonly status: "declined" }
  /** The lane broke: this call and the rest of the script go through the main thread. */
  | { readonly status: "unavailable" };

/** When a lane call stops waiting. */
export interface DispatchLaneWait {
  /** The script's deadline, in `Date.now()` milliseconds. */
  readonly deadline: number;
  /** True once the script is cancelled or past its deadline. */
  shouldStop(): boolean;
}

/** An open lane in a sandbox thread. */
export interface DispatchLaneConnection {
  /**
   * Runs one command and blocks until it is answered, `wait` says stop, or the lane fails.
   * `argsJson` is the script's argument, serialised. Must not throw.
   */
  call(name: string, argsJson: string, wait: DispatchLaneWait): DispatchLaneReply;
  /** Releases the connection; later calls answer `unavailable`. */
  close(): void;
}

/**
 * The `openDispatchLane` export of a lane module: opens a lane from {@link DispatchLane.data},
 * giving up when `signal` aborts. A rejection only means scripts run without the lane.
 */
export type OpenDispatchLane = (
  data: unknown,
  options: { readonly signal: AbortSignal },
) => Promise<DispatchLaneConnection>;
