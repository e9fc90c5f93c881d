/** Calls a method of the linked DCC for a script command; what command handlers are given. */
export interface LinkedCaller {
  /**
   * Calls `method` with `params` for the script command `command` (the name errors carry).
   * @throws {CommandError} with the host's code (a Python `HandlerError`'s) or the link's.
   */
  call(
    command: string,
    method: string,
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<unknown>;
}
