/**
 * Codes of {@link CommandError}s raised by the dispatcher itself. A handler's own string `code`
 * is passed through unchanged, so the set of codes a script can see is open.
 */
export const commandErrorCodes: {
  /** No command is registered under the name. */
  readonly unknownCommand: "UNKNOWN_COMMAND";
  /** The arguments do not match the command's JSON schema. */
  readonly invalidArgs: "INVALID_ARGS";
  /** The handler threw an error without a string `code`. */
  readonly commandFailed: "COMMAND_FAILED";
  /** The command's result cannot be represented as JSON. */
  readonly invalidResult: "INVALID_RESULT";
  /** The execution was cancelled (or timed out) before or while the command ran. */
  readonly cancelled: "CANCELLED";
  /** The executor has no dispatcher, so scripts cannot call commands. */
  readonly noDispatcher: "NO_DISPATCHER";
  /**
   * The command was not started: an earlier command whose script was stopped (timed out or
   * cancelled) is still running on the host, so the DCC is busy until it settles.
   */
  readonly hostBusy: "HOST_BUSY";
  /**
   * The command was not started: it falls under an approval rule that is on, and the person
   * asked said no, did not answer in time, or nobody could be asked (`data.rule` names the rule,
   * `data.reason` says which).
   */
  readonly approvalDenied: "APPROVAL_DENIED";
} = {
  unknownCommand: "UNKNOWN_COMMAND",
  invalidArgs: "INVALID_ARGS",
  commandFailed: "COMMAND_FAILED",
  invalidResult: "INVALID_RESULT",
  cancelled: "CANCELLED",
  noDispatcher: "NO_DISPATCHER",
  hostBusy: "HOST_BUSY",
  approvalDenied: "APPROVAL_DENIED",
} as const;
