/** What a host command receives besides its arguments. */
export interface CommandContext {
  /** Aborts when the execution that called the command is cancelled or times out. */
  signal: AbortSignal;
  /** Name the command was called by. */
  command: string;
}

/**
 * A host command that scripts call with `dispatch(name, args)`. `args` arrive as plain JSON data
 * (parsed from the script's JSON text, so no guest object ever reaches the handler).
 */
export interface CommandDefinition {
  /** Unique name scripts dispatch to, e.g. `"polySphere"`. */
  name: string;
  /**
   * Runs the command. Its (awaited) result must be JSON-representable; `undefined` becomes
   * `null`. A thrown error's string `code` property reaches the script unchanged.
   */
  handler: (args: unknown, context: CommandContext) => unknown;
  /** JSON Schema (draft-07 / 2019-09 as ajv 8 reads it) the arguments must match. */
  argsSchema?: Record<string, unknown>;
  /** One-line signature for the catalog, e.g. `polySphere(flags?: { radius?: number }): string[]`. */
  signature?: string;
  /** What the command does, for the catalog. */
  description?: string;
  /**
   * True when the command only reads the host and changes nothing in it (no scene edit, no
   * selection change, no undo step, no file written). A script's read-only command runs
   * between another script's commands and does not take the DCC; any other command takes the
   * DCC for the rest of its script (see `DccApiExecutor`). Default false: a command not marked
   * is taken to change the scene. Mark only commands that never change anything: a wrong mark
   * lets a change slip between another script's commands, outside both scripts' transactions.
   */
  readOnly?: boolean;
}
