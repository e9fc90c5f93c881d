/**
 * The DCC-side methods that keep a recovery copy of a launched DCC's scene, so that a restart
 * (a command past its deadline, a crash, a kill) loses nothing a script committed before the
 * copy: see {@link LinkedHostOptions.recovery}.
 */
export interface LinkedRecoveryMethods {
  /**
   * Saves a copy of the scene where only the DCC side and the adapter know (the method takes no
   * path): called with `{}` after a committed script changed the scene; answers
   * `{ saved: true, objects?: number }`.
   */
  readonly save: string;
  /**
   * Opens that copy on a DCC just restarted, before any waiting command runs: called with `{}`;
   * answers `{ opened: boolean, objects?: number }` (`false`: there is no copy).
   */
  readonly open: string;
  /**
   * At most one save per this many milliseconds: a change committed sooner is saved once the
   * time has passed (or after the next script, whichever is later). Default 10000.
   */
  readonly minIntervalMs?: number | undefined;
  /** Bound on one save or open. Default 120000 ms (a big scene on a loaded machine). */
  readonly timeoutMs?: number | undefined;
}

/** The last recovery copy a {@link LinkedHost} saved. */
export interface LinkedRecoveryCopy {
  /** When it was saved. */
  readonly savedAt: Date;
  /** The undo step of the last script it holds, e.g. `"dcc_execute: make a tree"`. */
  readonly label: string;
  /** The objects in it, when the DCC said. */
  readonly objects?: number | undefined;
  /** How many times the DCC had been launched when it was saved. */
  readonly launch: number;
}
