/**
 * Why a script's changes were not rolled back:
 * - `host_restarted`: the host died and was restarted during the script (its scene is the one
 *   it reopened, not the script's);
 * - `nothing_to_undo`: the script changed nothing the host can undo;
 * - `history_cut`: the host's undo history no longer reaches back to the transaction's start
 *   (too many steps, or something cleared it, e.g. opening a file);
 * - `no_undo`: the adapter has no undo;
 * - `scene_shared`: another script changed the same scene meanwhile, so undoing would undo it too
 *   (the executor's hold keeps scripts' changes apart, so it never reports this itself);
 * - `host_busy`: a host command of the stopped script was still running when the executor gave up
 *   waiting for it;
 * - `kept`: the caller asked to keep a failed script's changes;
 * - `failed`: the host refused or failed the undo (see the report's `detail`).
 */
export type DccRollbackRefusal =
  | "host_restarted"
  | "nothing_to_undo"
  | "history_cut"
  | "no_undo"
  | "scene_shared"
  | "host_busy"
  | "kept"
  | "failed";

/**
 * A script's net change report: what exists at its end that did not at its start, and the other
 * way round. Entries are as commands report them: a path string, or `{ type?, name?, path? }`.
 */
export interface DccChangeReport {
  /** Made by the script and still there at its end, under their final names. */
  readonly created: readonly unknown[];
  /** There at the script's start and gone at its end, by whatever route. */
  readonly removed: readonly unknown[];
  /** How many entries of each list were left out. */
  readonly more?: { readonly created?: number; readonly removed?: number };
}

/** What a {@link DccTransaction} did when it ended. */
export interface DccTransactionReport {
  /**
   * After `rollback`: true when the scene is as it was at `begin`. After `commit`: false (the
   * changes stay).
   */
  readonly rolledBack: boolean;
  /**
   * After `commit`: the name of the one undo step that holds the script's changes, undefined
   * when there is none (the script changed nothing, or the host could not make one: see
   * `reason`).
   */
  readonly undoStep?: string;
  /** Why not rolled back (or, after `commit`, why no undo step). */
  readonly reason?: DccRollbackRefusal;
  /** The reason in words an agent can act on. */
  readonly detail?: string;
  /**
   * Files the script wrote (saves, renders, exports), as the adapter names them. Undo leaves
   * files alone, so these stay written after a rollback too.
   */
  readonly filesWritten?: readonly string[];
  /**
   * The script's net changes, when the adapter tracks them across the whole script (each
   * data-block once, under its final name, removals by any route). When present, the result's
   * `stats.changes` is built from it instead of from the commands' own reports; absent when
   * nothing was created or removed.
   */
  readonly changes?: DccChangeReport;
}

/** What {@link DccAdapter.beginTransaction} receives. */
export interface DccTransactionOptions {
  /**
   * The name the undo step gets if the script succeeds: named after the call that ran it, e.g.
   * `"dcc_execute: make a tree"`. Short, one line.
   */
  readonly label: string;
  /**
   * Aborts when the executor stops waiting (for `begin`, `commit` or `rollback`): the adapter
   * should give up and settle.
   */
  readonly signal: AbortSignal;
  /**
   * The script's command the transaction begins before (its first that may change the scene):
   * the name an error of `begin` should carry, since the script sees it as that command's.
   * Undefined when a caller other than the executor begins one.
   */
  readonly command?: string;
}

/**
 * One script's changes to the host, from just before its first command that may change the
 * scene (one not marked `readOnly`) to its end. The script holds the DCC meanwhile: no other
 * script's change runs until its transaction has ended, though other scripts' reads may run
 * between its commands (and see its changes before they are committed). The executor calls
 * exactly one of `commit` or `rollback`, once, after every host command of the script has
 * settled (or a bounded wait for an orphaned one has ended), and no host command of that script
 * runs after it; no other script's command runs while it is under way.
 *
 * A host whose undo is a stack (Blender, Maya, the simulated scene) implements it as: `begin`
 * marks the stack (Maya: `undoInfo(openChunk=True, chunkName=label)`), `commit` makes
 * everything since the mark one undo step named `label` (Maya: `closeChunk`), `rollback`
 * restores the mark (Maya: `closeChunk`, then `undo`). Both settle with a report rather than
 * reject when the host cannot do it; a rejection is reported as `failed`.
 */
export interface DccTransaction {
  /** The script succeeded: keep its changes as one undo step named after the call. */
  commit(): Promise<DccTransactionReport>;
  /**
   * The script failed, was cancelled or timed out: put the scene back as it was at `begin`,
   * or report why not.
   */
  rollback(): Promise<DccTransactionReport>;
}
