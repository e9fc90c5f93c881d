import { DccMcpError } from "@dcc/cancel";
import type { ExecuteCompletion } from "./execute-result.ts";

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
  /**
   * Whether the command ran on the host: `complete` (the default: its handler ran to this
   * error), `not_started`, or `unknown` when the host may still have done it.
   */
  completion?: ExecuteCompletion | undefined;
  /** JSON facts the handler attached, e.g. `{ rule: "run-python" }` for a policy refusal. */
  data?: unknown;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * A host command failed, or could not be run. {@link ToolDispatcher.dispatch} rejects with it,
 * and a script sees the same `command`, `code`, `message`, `completion` and `data` on the
 * error `dispatch` throws.
 */
export class CommandError extends DccMcpError {
  override readonly name: string = "CommandError";
  /** Name of the command that failed. */
  readonly command: string;
  /** Closest registered names, for an unknown command (empty otherwise). */
  readonly suggestions: readonly string[];
  /** Whether the command ran on the host (`complete` for an error its handler raised). */
  readonly completion: ExecuteCompletion;
  /** What the handler attached to the error (`undefined` when nothing). */
  readonly data: unknown;

  constructor(options: CommandErrorOptions) {
    super({ message: options.message, code: options.code, cause: options.cause });
    this.command = options.command;
    this.suggestions = options.suggestions ?? [];
    this.completion = options.completion ?? "complete";
    this.data = options.data;
  }
}
