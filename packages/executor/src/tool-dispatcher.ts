import { CommandError } from "./command-error.ts";
import { commandErrorCodes } from "./command-error-code.ts";
import type { ExecuteCompletion } from "./execute-result.ts";
import { closestNames } from "./internal/closest-names.ts";
import type { ToolRegistry } from "./tool-registry.ts";

/** Options for {@link ToolDispatcher.dispatch}. */
export interface DispatchOptions {
  /**
   * Cancels the call: a queued call leaves the queue at once and never starts, a running one sees
   * its signal abort. A running one that still does not settle is orphaned (see
   * {@link ToolDispatcher}).
   */
  signal?: AbortSignal;
}

/** Result of {@link dispatchNow}: settled at once, or a promise. */
export type DispatchOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: CommandError }
  | Promise<unknown>;

const neverAborted = new AbortController().signal;

let dispatchNowOn: (
  dispatcher: ToolDispatcher,
  name: string,
  args: unknown,
  options: DispatchOptions,
) => DispatchOutcome;

/**
 * Like {@link ToolDispatcher.dispatch}, but when no other call is queued or running and the
 * handler is synchronous, it runs at once and the outcome comes back without a promise (the
 * sandbox's dispatch path saves its microtask hops this way). Internal to `@dcc/executor`.
 */
export function dispatchNow(
  dispatcher: ToolDispatcher,
  name: string,
  args: unknown,
  options: DispatchOptions = {},
): DispatchOutcome {
  return dispatchNowOn(dispatcher, name, args, options);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** The host command that owns the host right now, when its handler returned a promise. */
interface RunningCall {
  readonly command: string;
  readonly startedAt: number;
  /** When its caller went (its signal aborted); undefined while the caller waits. */
  stoppedAt: number | undefined;
  /** Its caller is gone (signal aborted) and it has still not settled after the grace period. */
  orphaned: boolean;
}

/** A call waiting for its turn. */
interface Waiter {
  readonly command: string;
  readonly signal: AbortSignal;
  admit(): void;
  refuse(error: CommandError): void;
}

/**
 * How long a command whose signal aborted may take to settle before it counts as orphaned. A
 * command that honours its signal stops within it; one that ignores it is reported busy after it.
 */
const orphanGraceMs = 50;

/**
 * Runs registered commands by name, one at a time: a DCC's main thread is single-threaded, so a
 * call waits until the previous one (from any script using this dispatcher) has settled. Scripts
 * run by a `DccApiExecutor` also hold the DCC behind a dispatcher from their first command not
 * marked `readOnly` to the end of their transaction (one hold per dispatcher, shared by its
 * executors); a direct `dispatch` call takes no hold.
 *
 * A command whose caller is gone (its signal aborted: the script timed out or was cancelled) but
 * which still has not settled is orphaned: the DCC is busy with work nobody waits for. Calls are
 * not queued behind it; they fail at once with `HOST_BUSY`, and dispatch works normally again once
 * it settles.
 */
export class ToolDispatcher {
  /** The commands this dispatcher runs. */
  readonly registry: ToolRegistry;
  /** A call owns the host: running, or admitted and about to start. */
  #taken = false;
  #running: RunningCall | undefined;
  readonly #queue: Waiter[] = [];

  static {
    dispatchNowOn = (dispatcher, name, args, options) =>
      dispatcher.#dispatchNow(name, args, options);
  }

  constructor(registry: ToolRegistry) {
    this.registry = registry;
  }

  /**
   * Validates and runs one command.
   * @returns The handler's (awaited) result.
   * @throws {CommandError} `UNKNOWN_COMMAND` (with the closest names), `INVALID_ARGS`,
   *   `CANCELLED`, `HOST_BUSY` (an orphaned command still holds the host), or the handler's own
   *   code (`COMMAND_FAILED` when it has none).
   */
  dispatch(name: string, args: unknown, options: DispatchOptions = {}): Promise<unknown> {
    const outcome = this.#dispatchNow(name, args, options);
    if (outcome instanceof Promise) return outcome;
    return outcome.ok ? Promise.resolve(outcome.value) : Promise.reject(outcome.error);
  }

  /** See {@link dispatchNow}. */
  #dispatchNow(name: string, args: unknown, options: DispatchOptions): DispatchOutcome {
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
          completion: "not_started",
        }),
      };
    }
    const signal = options.signal ?? neverAborted;
    const notStarted = (): CommandError =>
      new CommandError({
        command: name,
        code: commandErrorCodes.cancelled,
        message: `${name} was not started: the call was cancelled`,
        completion: "not_started",
      });
    if (this.#running?.orphaned === true) return { ok: false, error: this.#busy(name) };
    if (signal.aborted) return { ok: false, error: notStarted() };
    const run = (): DispatchOutcome => {
      let value: unknown;
      try {
        value = definition.handler(args, { signal, command: name });
      } catch (error) {
        return { ok: false, error: toCommandError(name, error) };
      }
      if (!isThenable(value)) return { ok: true, value };
      return this.#watch(
        name,
        signal,
        Promise.resolve(value).catch((error: unknown) => {
          throw toCommandError(name, error);
        }),
      );
    };
    if (!this.#taken) {
      // Nothing ahead of this call, so running it now keeps the one-at-a-time order.
      this.#taken = true;
      const outcome = run();
      if (!(outcome instanceof Promise)) this.#next();
      return outcome;
    }
    let waiter: Waiter | undefined;
    const turn = new Promise<void>((admit, refuse) => {
      waiter = { command: name, signal, admit, refuse };
    });
    const queued = waiter as Waiter;
    this.#queue.push(queued);
    const onAbort = (): void => {
      const index = this.#queue.indexOf(queued);
      if (index === -1) return;
      this.#queue.splice(index, 1);
      queued.refuse(notStarted());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    // The handler runs after `await turn`, so in the caller's async context, not the previous
    // call's.
    return (async (): Promise<unknown> => {
      try {
        await turn;
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
      if (signal.aborted) {
        this.#next();
        throw notStarted();
      }
      const outcome = run();
      if (outcome instanceof Promise) return outcome;
      this.#next();
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    })();
  }

  /** Holds the host until `call` settles, and marks it orphaned if its caller goes first. */
  #watch(command: string, signal: AbortSignal, call: Promise<unknown>): Promise<unknown> {
    const running: RunningCall = {
      command,
      startedAt: performance.now(),
      stoppedAt: undefined,
      orphaned: false,
    };
    this.#running = running;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      running.stoppedAt = performance.now();
      grace = setTimeout(() => {
        running.orphaned = true;
        // Calls already waiting would wait for nobody's work: they are refused too.
        for (const waiter of this.#queue.splice(0)) waiter.refuse(this.#busy(waiter.command));
      }, orphanGraceMs);
      grace.unref?.();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    return call.finally(() => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(grace);
      this.#running = undefined;
      this.#next();
    });
  }

  /** Lets the next waiting call in, or frees the host. */
  #next(): void {
    const waiter = this.#queue.shift();
    if (waiter === undefined) {
      this.#taken = false;
      return;
    }
    waiter.admit();
  }

  #busy(command: string): CommandError {
    const running = this.#running;
    const stuck = running?.command ?? "unknown";
    const now = performance.now();
    const since = (from: number | undefined): string =>
      ((from === undefined ? 0 : now - from) / 1000).toFixed(1);
    return new CommandError({
      command,
      code: commandErrorCodes.hostBusy,
      message: `Host command ${stuck} is still running ${since(running?.stoppedAt)} s after its script was stopped (${since(running?.startedAt)} s in all); the DCC is busy.`,
      completion: "not_started",
    });
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
      completion: "not_started",
    });
  }
}

function toCommandError(command: string, error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A handler's own error keeps its string `code`, and its `completion` when it says one (a
  // link error does: a call the host may have run is `unknown`).
  const own = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof own["code"] === "string" ? own["code"] : commandErrorCodes.commandFailed;
  const completion = completions.has(own["completion"])
    ? (own["completion"] as ExecuteCompletion)
    : undefined;
  return new CommandError({ command, code, message, completion, cause: error });
}

const completions: ReadonlySet<unknown> = new Set(["complete", "not_started", "unknown"]);
