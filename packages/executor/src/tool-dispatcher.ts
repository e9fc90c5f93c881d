import { CommandError } from "./command-error.ts";
import { commandErrorCodes } from "./command-error-code.ts";
import { closestNames } from "./internal/closest-names.ts";
import type { ToolRegistry } from "./tool-registry.ts";

/** Options for {@link ToolDispatcher.dispatch}. */
export interface DispatchOptions {
  /** Cancels the call: a queued call never starts, a running one sees its signal abort. */
  signal?: AbortSignal;
}

/** Result of {@link ToolDispatcher.dispatchNow}: settled at once, or a promise. */
export type DispatchOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: CommandError }
  | Promise<unknown>;

const neverAborted = new AbortController().signal;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Runs registered commands by name, one at a time: a DCC's main thread is single-threaded, so a
 * call waits until the previous one (from any script using this dispatcher) has settled.
 */
export class ToolDispatcher {
  /** The commands this dispatcher runs. */
  readonly registry: ToolRegistry;
  #tail: Promise<unknown> = Promise.resolve();
  /** Calls queued or running. */
  #pending = 0;

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
    const outcome = this.dispatchNow(name, args, options);
    if (outcome instanceof Promise) return outcome;
    return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
  }

  /**
   * Like {@link ToolDispatcher.dispatch}, but when no other call is queued or running and the
   * handler is synchronous, it runs at once and the outcome comes back without a promise (the
   * sandbox's dispatch path saves its microtask hops this way). Used inside `@dcc/executor`.
   */
  dispatchNow(name: string, args: unknown, options: DispatchOptions = {}): DispatchOutcome {
    const definition = this.registry.get(name);
    if (definition === undefined) return { ok: false, error: this.#unknown(name) };
    const problems = this.registry.validateArgs(name, args);
    if (problems !== null) {
      return {
        ok: false,
        error: new CommandError({
          command: name,
          code: commandErrorCodes.invalidArgs,
          message: `Invalid arguments for ${name}: ${problems.join("; ")}`,
        }),
      };
    }
    const signal = options.signal ?? neverAborted;
    const notStarted = (): CommandError =>
      new CommandError({
        command: name,
        code: commandErrorCodes.cancelled,
        message: `${name} was not started: the call was cancelled`,
      });
    if (this.#pending === 0) {
      // Nothing ahead of this call, so running it now keeps the one-at-a-time order.
      if (signal.aborted) return { ok: false, error: notStarted() };
      let value: unknown;
      try {
        value = definition.handler(args, { signal, command: name });
      } catch (error) {
        return { ok: false, error: toCommandError(name, error) };
      }
      if (!isThenable(value)) return { ok: true, value };
      return this.#track(
        Promise.resolve(value).catch((error: unknown) => {
          throw toCommandError(name, error);
        }),
      );
    }
    const run = async (): Promise<unknown> => {
      if (signal.aborted) throw notStarted();
      try {
        return await definition.handler(args, { signal, command: name });
      } catch (error) {
        throw toCommandError(name, error);
      }
    };
    return this.#track(this.#tail.then(run, run));
  }

  /** Counts a call as pending until it settles, and queues the next calls behind it. */
  #track(call: Promise<unknown>): Promise<unknown> {
    this.#pending++;
    const settled = call.finally(() => {
      this.#pending--;
    });
    this.#tail = settled.catch(() => {});
    return settled;
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
