import { DccMcpError } from "@dcc/cancel";

/** Options for {@link CommandError}. */
export interface CommandErrorOptions {
  /** Name of the command that failed. */
  command: string;
  /** Stable code: one of {@link commandErrorCodes} or the handler's own `code`. */
  code: string;
  /** Human-readable message. */
  message: string;
  /** Closest registered names, for an unknown command. */
  suggestions?: readonly string[];
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * A host command failed, or could not be run. {@link ToolDispatcher.dispatch} rejects with it,
 * and a script sees the same `command`, `code` and `message` on the error `dispatch` throws.
 */
export class CommandError extends DccMcpError {
  override readonly name: string = "CommandError";
  /** Name of the command that failed. */
  readonly command: string;
  /** Closest registered names, for an unknown command (empty otherwise). */
  readonly suggestions: readonly string[];

  constructor(options: CommandErrorOptions) {
    super({ message: options.message, code: options.code, cause: options.cause });
    this.command = options.command;
    this.suggestions = options.suggestions ?? [];
  }
}
