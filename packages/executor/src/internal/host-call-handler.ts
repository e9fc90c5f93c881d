// The host side of `dispatch(name, args)`: each call from the guest is checked, run through the
// dispatcher inside the caller's cancel context, and answered as one JSON reply string.
import { context as otelContext } from "@opentelemetry/api";
import { CommandError } from "../command-error.ts";
import { commandErrorCodes } from "../command-error-code.ts";
import type { ExecuteChanges } from "../execute-result.ts";
import { withImageSink } from "../host-image.ts";
import { dispatchNow, type ToolDispatcher } from "../tool-dispatcher.ts";
import type { ApprovalGate } from "./approval-gate.ts";
import { ChangeTally } from "./change-tally.ts";
import { CommandCounts } from "./command-counts.ts";
import type { ImageStash } from "./image-stash.ts";
import { errorReply, valueReply } from "./reply-text.ts";
import type { ScriptTrace } from "./script-tracing.ts";

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
  /** Holds the images commands return; the script sees references to them. */
  images?: ImageStash | undefined;
  /**
   * Called before each command reaches the dispatcher; a promise it returns (the DCC's hold, the
   * script's transaction beginning) is awaited first, and a rejection is the command's answer.
   */
  beforeCall?: (command: string) => Promise<void> | undefined;
  /** The script's spans: each command runs in its host-call span (or the script's). */
  trace?: ScriptTrace | undefined;
  /**
   * The script's approval rules: a command under one waits for the answer before anything else
   * (before `beforeCall`), and a denial is its answer.
   */
  approval?: ApprovalGate | undefined;
}

/** Answers the guest's host calls and counts them. */
export interface HostCallHandler {
  /** One call: the reply JSON, at once or once the command settles. */
  onCall(name: string, argsJson: string): string | Promise<string>;
  /** Calls that reached the dispatcher. */
  readonly calls: number;
  /** Those calls by command name (bounded, see {@link CommandCounts}); undefined for none. */
  commands(): Record<string, number> | undefined;
  /** What those commands reported creating and removing (see {@link ChangeTally}). */
  changes(): ExecuteChanges | undefined;
  /** Commands started and not settled yet, those still waiting (see `waiting`) included. */
  readonly inFlight: number;
  /** Of those, commands still waiting to start (for the DCC's hold, or a transaction's begin). */
  readonly waiting: number;
  /** Settles once no command is in flight. */
  idle(): Promise<void>;
}

/** A {@link HostCallHandler} for one execution. */
export function createHostCallHandler(options: HostCallHandlerOptions): HostCallHandler {
  const { dccName, dispatcher, stop, host, inCallerContext, images, beforeCall, trace, approval } =
    options;
  // A command's images are held here; its reply carries their references instead of the bytes.
  // Only an object can hold an image.
  const reply =
    images === undefined
      ? valueReply
      : (command: string, value: unknown): string =>
          typeof value !== "object" || value === null
            ? valueReply(command, value)
            : withImageSink(images.add, () => valueReply(command, value));
  let calls = 0;
  const counts = new CommandCounts();
  const changes = new ChangeTally();
  let inFlight = 0;
  let waiting = 0;
  const waiters: Array<() => void> = [];
  const settled = (): void => {
    inFlight--;
    if (inFlight === 0) for (const wake of waiters.splice(0)) wake();
  };
  // Made once, not per call: most scripts have no approval rules, and their calls go straight here.
  const begin = (name: string): Promise<void> | undefined => {
    if (beforeCall === undefined) return undefined;
    const scriptContext = trace?.context;
    return scriptContext === undefined
      ? beforeCall(name)
      : otelContext.with(scriptContext, beforeCall, undefined, name);
  };
  const dispatchOptions = { signal: host };
  const run = (name: string, args: unknown): string | Promise<string> => {
    const traced = trace?.hostCall(name);
    const outcome = inCallerContext(() =>
      traced === undefined
        ? dispatchNow(dispatcher as ToolDispatcher, name, args, dispatchOptions)
        : otelContext.with(
            traced.context,
            dispatchNow,
            undefined,
            dispatcher as ToolDispatcher,
            name,
            args,
            dispatchOptions,
          ),
    );
    if (!(outcome instanceof Promise)) {
      traced?.end(outcome.ok ? undefined : outcome.error);
      if (!outcome.ok) return failureReply(name, outcome.error);
      changes.add(outcome.value);
      return reply(name, outcome.value);
    }
    inFlight++;
    return outcome.then(
      (value) => {
        traced?.end();
        settled();
        changes.add(value);
        return reply(name, value);
      },
      (error: unknown) => {
        traced?.end(error ?? "failed");
        settled();
        return failureReply(name, error);
      },
    );
  };
  return {
    idle() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    get calls() {
      return calls;
    },
    commands: () => counts.toJSON(),
    changes: () => changes.toJSON(),
    get waiting() {
      return waiting;
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
      counts.add(name);
      // An approval question comes first: a denied command neither takes the DCC nor begins a
      // transaction.
      const question = approval?.check(name, args);
      const beginning =
        question === undefined
          ? begin(name)
          : question.then((denied) => {
              if (denied !== undefined) throw denied;
              if (stop.aborted) return;
              return begin(name);
            });
      if (beginning === undefined) return run(name, args);
      // The transaction begins first; counted in flight so a stop waits for it too.
      inFlight++;
      waiting++;
      return beginning.then(
        () => {
          waiting--;
          const reply = stop.aborted
            ? errorReply(
                name,
                commandErrorCodes.cancelled,
                `${name} was not started: the script was stopped`,
                { completion: "not_started" },
              )
            : run(name, args);
          settled();
          return reply;
        },
        (error: unknown) => {
          waiting--;
          settled();
          return failureReply(name, error);
        },
      );
    },
  };
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
