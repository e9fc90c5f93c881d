import type { CommandRecord } from "@dcc/catalog";

/**
 * One Maya command of the reference catalog, as generated from the `maya.cmds` type stubs:
 * a readable TypeScript-like `signature`, every flag name, the create-mode return type and
 * whether the command has edit and query modes.
 */
export interface MayaCommandRecord extends CommandRecord {
  /** The command name, as passed to `dispatch`. */
  name: string;
  /**
   * TypeScript-like call text following the dispatch convention, e.g.
   * `polySphere(args?: string[], flags?: { radius?: number /*q*\/; … }): string[]`. Flags marked
   * `/*q*\/` can be queried; long flag lists are cut after 25 with a `…N more flags` note.
   */
  signature: string;
  /** A one-line description, present for the most used commands. */
  description?: string;
  /** Every flag name, including those the signature leaves out. */
  flags: readonly string[];
  /** The create-mode return type, TypeScript-like. */
  returns: string;
  /** `true` when the command has a query mode (`query: true`). */
  queryable?: boolean;
  /** `true` when the command has an edit mode (`edit: true`). */
  editable?: boolean;
}
