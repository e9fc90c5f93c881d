import type { DccApiCatalog } from "@dcc/catalog";
import type { ApprovalRule } from "./approval.ts";
import type { CommandDefinition } from "./command-definition.ts";
import type { DccTransaction, DccTransactionOptions } from "./dcc-transaction.ts";
import type { DispatchLane } from "./dispatch-lane.ts";

/**
 * The names a server gives one adapter's pair of tools: `dcc_search`/`dcc_execute` when it
 * serves one adapter, `<name>_search`/`<name>_execute` when it serves several. Adapter texts
 * that name the tools take them from here, so they stay right under any prefix.
 */
export interface DccToolNames {
  /** The search tool, e.g. `"dcc_search"` or `"maya_search"`. */
  readonly search: string;
  /** The execute tool, e.g. `"dcc_execute"` or `"maya_execute"`. */
  readonly execute: string;
}

/**
 * What an adapter reports about its host (the DCC process, socket or simulation behind it).
 * `restarting` means it went away and is being brought back: calls wait for it rather than
 * being refused, but the server is not ready meanwhile. `unavailable` means calls cannot reach
 * it now (its connection dropped, or it keeps crashing and the next try is later); `ready`
 * means it is back.
 */
export type DccHostStatus =
  | { readonly state: "ready" }
  | {
      readonly state: "restarting" | "unavailable";
      /** Why, in words an agent can act on, e.g. `"Blender exited; restarting"`. */
      readonly reason: string;
    };

/** What {@link DccAdapter.start} receives from the server that runs the adapter. */
export interface DccAdapterContext {
  /**
   * Aborts when the server stops waiting for `start` (its start timeout, or shutdown): a start
   * that launches or connects should give up and release what it took.
   */
  readonly signal: AbortSignal;
  /**
   * Tells the server the host's state changed, at any time after `start` was called. While the
   * host is unavailable the server refuses new scripts for this adapter (`HOST_UNAVAILABLE`) and
   * stops the ones running; search keeps working. While it is restarting scripts still run (their
   * commands wait for the host) and readiness checks fail. Reporting `ready` resumes it.
   */
  reportHost(status: DccHostStatus): void;
}

/**
 * The seam between a server and one DCC. An adapter supplies the host commands scripts
 * `dispatch` to and the catalog search looks in, plus the texts that teach an agent the DCC's
 * conventions; it owns its host's lifecycle (launch or connect in `start`, release in `close`)
 * and reports when the host goes away or comes back. The simulated Maya scene of `@dcc/maya` is
 * one adapter; a real DCC behind a socket is another. Adapters need no MCP code: the server in
 * `@dcc/mcp-bridge` (or {@link createAdapterExecutor} alone) drives them.
 *
 * Order: `start` (if any) settles first; `commands()` and `catalog()` are read once after it, so
 * an adapter may discover them from its host; `close` is called once at shutdown, also after a
 * `start` that failed.
 */
export interface DccAdapter {
  /** DCC identifier: the tool prefix when a server hosts several, and the name in messages. */
  readonly dccName: string;
  /**
   * Launches or connects to the host. A rejection marks this adapter as failed (its tools
   * answer `HOST_UNAVAILABLE` with the reason) without affecting other adapters.
   */
  start?(context: DccAdapterContext): Promise<void>;
  /**
   * How many scripts may run at once against this host (see `DccApiExecutorOptions.scriptsAtOnce`).
   * Default: no limit beyond the sandbox pool's size. Scripts' changes never interleave whatever
   * it is (a script holds the DCC from its first command that may change the scene to the end of
   * its transaction; see {@link CommandDefinition.readOnly}), so a DCC with one shared scene
   * needs no limit; 1 also makes a script that never calls the DCC wait for the one before.
   */
  readonly scriptsAtOnce?: number;
  /**
   * Commands a script's sandbox thread may run on the host itself, without the main thread (see
   * {@link DispatchLane}): asked for as each script is submitted; undefined while the host is not
   * ready, or for an adapter without one.
   */
  dispatchLane?(): DispatchLane | undefined;
  /**
   * Starts a script's transaction (see {@link DccTransaction}): called just before the script's
   * first command that may change the scene (not `readOnly`) through the main thread, once the
   * script holds the DCC (a script that dispatches nothing, or only reads, has none), and
   * awaited before that command runs. A rejection runs the script without one, and its result
   * says the changes cannot be rolled back. Without this method the adapter has no undo:
   * failed scripts keep their partial changes and say so.
   */
  beginTransaction?(options: DccTransactionOptions): Promise<DccTransaction>;
  /** Host commands for a `ToolRegistry`: every command a script may dispatch. */
  commands(): readonly CommandDefinition[];
  /**
   * The approval rules this adapter declares (see {@link ApprovalRule}): for each of the shared
   * names (`delete`, `overwrite`, `open`, `render`) it supports, which of its commands it covers
   * and what a call touches. Read once after `start`, like `commands()`; a server turns on the
   * ones it is asked to (`--ask`).
   */
  approvalRules?(): readonly ApprovalRule[];
  /** What search looks in. */
  catalog(): DccApiCatalog;
  /** Server instructions sent to clients in `initialize` (what the DCC offers, conventions). */
  instructions?(tools: DccToolNames): string;
  /** Replaces the execute tool's description, e.g. to state the DCC's argument convention. */
  executeDescription?(tools: DccToolNames): string;
  /** Releases the host: stops a launched process, closes sockets and files. */
  close?(): Promise<void>;
}
