// The executor the tests drive. Interim stand-in until @dcc/executor lands: runs the script as an
// async function in-process (so scripts must `await dispatch`), honouring the signal before every
// dispatch like the real sandbox does.
import type { BridgeExecuteOptions, BridgeExecutor, BridgeResult } from "../bridge-executor.ts";
import { createHostCommands, type HostJournal } from "./host-commands.ts";

/** The executor plus what tests observe about it. */
export interface TestExecutor {
  executor: BridgeExecutor;
  journal: HostJournal;
  /** Results of finished execute calls, in order. */
  results: BridgeResult[];
  /** Resolves once no execute call is running (bounded by `ms`). */
  idle(ms?: number): Promise<boolean>;
  close(): Promise<void>;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** Creates a test executor named `dccName` with the host commands of {@link createHostCommands}. */
export function createTestExecutor(dccName = "maya"): TestExecutor {
  const { commands, journal } = createHostCommands();
  const results: BridgeResult[] = [];
  let running = 0;
  const executor: BridgeExecutor = {
    dccName,
    search(query, options) {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      const hits = commands
        .filter((c) => words.some((w) => `${c.name} ${c.description}`.toLowerCase().includes(w)))
        .slice(0, options?.limit ?? 10)
        .map(({ name, signature, description }) => ({ name, signature, description }));
      return hits.length > 0
        ? {
            success: true,
            message: `Found ${hits.length} command(s) matching '${query}'.`,
            results: hits,
          }
        : {
            success: true,
            message: `No commands found matching '${query}' in the ${dccName} catalog.`,
            results: [],
          };
    },
    async execute(code: string, options: BridgeExecuteOptions = {}) {
      running += 1;
      const logs: string[] = [];
      const signal = options.signal;
      const dispatch = async (name: string, args: unknown) => {
        if (signal?.aborted) throw Object.assign(new Error("cancelled"), { code: "CANCELLED" });
        const command = commands.find((c) => c.name === name);
        if (command === undefined)
          throw Object.assign(new Error(`Unknown command ${name}`), { code: "UNKNOWN_COMMAND" });
        return await command.handler(args, {
          signal: signal ?? new AbortController().signal,
          command: name,
        });
      };
      const progress = (done: number, total?: number, message?: string) =>
        options.onProgress?.({
          progress: done,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        });
      const log =
        (level: "log" | "warn" | "error") =>
        (...parts: unknown[]) => {
          const message = parts.map(String).join(" ");
          logs.push(message);
          options.onLog?.({ level, message });
        };
      const console = { log: log("log"), warn: log("warn"), error: log("error") };
      let result: BridgeResult;
      try {
        const output = await new AsyncFunction("dispatch", "progress", "console", code)(
          dispatch,
          progress,
          console,
        );
        result = {
          success: true,
          message: `Script executed successfully on ${dccName}.`,
          output: output ?? null,
          logs,
          completion: "complete",
        };
      } catch (error) {
        const cancelled = signal?.aborted === true;
        result = {
          success: false,
          message: cancelled
            ? `Script was cancelled on ${dccName}.`
            : `Script failed on ${dccName}.`,
          error: error instanceof Error ? error.message : String(error),
          errorCode: cancelled ? "CANCELLED" : "SCRIPT_ERROR",
          logs,
          completion: "complete",
        };
      }
      results.push(result);
      running -= 1;
      return result;
    },
  };
  return {
    executor,
    journal,
    results,
    async idle(ms = 5000) {
      const deadline = Date.now() + ms;
      while (running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      return running === 0;
    },
    async close() {},
  };
}
