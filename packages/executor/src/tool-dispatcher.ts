import { CommandError } from "./command-error.ts";
import { commandErrorCodes } from "./command-error-code.ts";
import { closestNames } from "./internal/closest-names.ts";
import type { ToolRegistry } from "./tool-registry.ts";

/** Options for {@link ToolDispatcher.dispatch}. */
export interface DispatchOptions {
  /** Cancels the call: a queued call never starts, a running one sees its signal abort. */
  signal?: AbortSignal;
}

const neverAborted = new AbortController().signal;

/**
 * Runs registered commands by name, one at a time: a DCC's main thread is single-threaded, so a
 * call waits until the previous one (from any script using this dispatcher) has settled.
 */
export class ToolDispatcher {
  /** The commands this dispatcher runs. */
  readonly registry: ToolRegistry;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(registry: ToolRegistry) {
    this.registry = registry;
  }

  /**
   * Validates and runs one command.
   * @returns The handler's (awaited) result.
   * @throws {CommandError} `UNKNOWN_COMMAND` (with the closest names), `INVALID_ARGS`,
   *   `CANCELLED`, or the handler's own code (`COMMAND_FAILED` when it has none).
   */
  dispatch(name: string, args: unknown, options: DispatchOptions = {}): Promise<unknown> {
    const definition = this.registry.get(name);
    if (definition === undefined) return Promise.reject(this.#unknown(name));
    const problems = this.registry.validateArgs(name, args);
    if (problems !== null) {
      return Promise.reject(
        new CommandError({
          command: name,
          code: commandErrorCodes.invalidArgs,
          message: `Invalid arguments for ${name}: ${problems.join("; ")}`,
        }),
      );
    }
    const signal = options.signal ?? neverAborted;
    const run = async (): Promise<unknown> => {
      if (signal.aborted) {
        throw new CommandError({
          command: name,
          code: commandErrorCodes.cancelled,
          message: `${name} was not started: the call was cancelled`,
        });
      }
      try {
        return await definition.handler(args, { signal, command: name });
      } catch (error) {
        throw toCommandError(name, error);
      }
    };
    const result = this.#tail.then(run, run);
    this.#tail = result.catch(() => {});
    return result;
  }

  #unknown(name: string): CommandError {
    const suggestions = closestNames(name, this.registry.names());
    const hint =
      suggestions.length === 0
        ? "Search the catalog for the right name."
        : suggestions.length === 1
          ? `Did you mean ${suggestions[0]}?`
          : `Did you mean one of: ${suggestions.join(", ")}?`;
    return new CommandError({
      command: name,
      code: commandErrorCodes.unknownCommand,
      message: `Unknown command: ${name}. ${hint}`,
      suggestions,
    });
  }
}

function toCommandError(command: string, error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code =
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string"
      ? (error as { code: string }).code
      : commandErrorCodes.commandFailed;
  return new CommandError({ command, code, message, cause: error });
}
