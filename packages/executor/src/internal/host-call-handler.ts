// The host side of `dispatch(name, args)`: each call from the guest is checked, run through the
// dispatcher inside the caller's cancel context, and answered as one JSON reply string.
import { CommandError } from "../command-error.ts";
import { commandErrorCodes } from "../command-error-code.ts";
import type { ExecuteCompletion } from "../execute-result.ts";
import { dispatchNow, type ToolDispatcher } from "../tool-dispatcher.ts";

/** What a {@link HostCallHandler} needs from its execution. */
export interface HostCallHandlerOptions {
  dccName: string;
  dispatcher: ToolDispatcher | undefined;
  /** Aborted once the script is stopped: later calls are refused without starting. */
  stop: AbortSignal;
  /** The signal every host command receives. */
  host: AbortSignal;
  /** Runs the command in the cancel context of the caller of `execute`. */
  inCallerContext: <T>(fn: () => T) => T;
}

/** Answers the guest's host calls and counts them. */
export interface HostCallHandler {
  /** One call: the reply JSON, at once or once the command settles. */
  onCall(name: string, argsJson: string): string | Promise<string>;
  /** Calls that reached the dispatcher. */
  readonly calls: number;
  /** Commands started and not settled yet. */
  readonly inFlight: number;
}

/** A {@link HostCallHandler} for one execution. */
export function createHostCallHandler(options: HostCallHandlerOptions): HostCallHandler {
  const { dccName, dispatcher, stop, host, inCallerContext } = options;
  let calls = 0;
  let inFlight = 0;
  return {
    get calls() {
      return calls;
    },
    get inFlight() {
      return inFlight;
    },
    onCall(name, argsJson) {
      if (stop.aborted) {
        return errorReply(
          name,
          commandErrorCodes.cancelled,
          `${name} was not started: the script was stopped`,
          { completion: "not_started" },
        );
      }
      if (dispatcher === undefined) {
        return errorReply(
          name,
          commandErrorCodes.noDispatcher,
          `No host commands are available on ${dccName}`,
          { completion: "not_started" },
        );
      }
      // Re-parsed on the host: plain data only, `__proto__` keys stay inert own properties.
      let args: unknown;
      try {
        args = JSON.parse(argsJson);
      } catch {
        return errorReply(name, commandErrorCodes.invalidArgs, "The arguments are not valid JSON", {
          completion: "not_started",
        });
      }
      calls++;
      const outcome = inCallerContext(() => dispatchNow(dispatcher, name, args, { signal: host }));
      if (!(outcome instanceof Promise)) {
        return outcome.ok ? valueReply(name, outcome.value) : failureReply(name, outcome.error);
      }
      inFlight++;
      return outcome.then(
        (value) => {
          inFlight--;
          return valueReply(name, value);
        },
        (error: unknown) => {
          inFlight--;
          return failureReply(name, error);
        },
      );
    },
  };
}

const bigintAsString = (_key: string, item: unknown): unknown =>
  typeof item === "bigint" ? String(item) : item;

function valueReply(command: string, value: unknown): string {
  // JSON.stringify drops a top-level function or symbol without an error; the script would
  // silently receive undefined, so these are refused like any other non-JSON value.
  if (typeof value === "function" || typeof value === "symbol") {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: a ${typeof value}`,
    );
  }
  const reply = { ok: true, value: value === undefined ? null : value };
  try {
    // Without a replacer first: it is much faster, and only a BigInt (or a real error) throws.
    return JSON.stringify(reply);
  } catch {
    // Retried below with BigInts as strings.
  }
  try {
    return JSON.stringify(reply, bigintAsString);
  } catch (error) {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function failureReply(command: string, error: unknown): string {
  if (error instanceof CommandError) {
    return errorReply(command, error.code, error.message, {
      completion: error.completion,
      data: error.data,
    });
  }
  // The dispatcher makes every handler error a CommandError; anything else failed in it.
  const message = error instanceof Error ? error.message : String(error);
  return errorReply(command, commandErrorCodes.commandFailed, message);
}

interface ErrorFacts {
  completion?: ExecuteCompletion;
  data?: unknown;
}

function errorReply(
  command: string,
  code: string,
  message: string,
  facts: ErrorFacts = {},
): string {
  const error = { command, code, message, completion: facts.completion ?? "complete" };
  if (facts.data !== undefined) {
    try {
      return JSON.stringify({ ok: false, error: { ...error, data: facts.data } });
    } catch {
      // Data that is not JSON (a BigInt, a cycle) is left out rather than losing the error.
    }
  }
  return JSON.stringify({ ok: false, error });
}
