// The executor the DccApiExecutor tests share: a registry of test commands (synchronous,
// asynchronous, failing, blocking until aborted, not JSON-representable), the state they record,
// and a pool of two workers. Each test file closes the pool after its tests.
import { currentCancelToken } from "@dcc/cancel";
import { DccApiCatalog } from "@dcc/catalog";
import { CommandError } from "../command-error.ts";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import type { ExecuteResult } from "../execute-result.ts";
import { SandboxPool } from "../sandbox-pool.ts";
import { ToolDispatcher } from "../tool-dispatcher.ts";
import { ToolRegistry } from "../tool-registry.ts";

/** A promise settled from outside, for handlers that block until a test lets them go. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

export const events: string[] = [];
let running = 0;
export let maxRunning = 0;
export let slowStarted = deferred();
export let slowAborted = deferred<boolean>();
export let seenToken: unknown;

export const registry = new ToolRegistry().registerAll([
  {
    name: "add",
    handler: (args) => {
      const { a, b } = args as { a: number; b: number };
      return a + b;
    },
    argsSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  { name: "echo", handler: (args) => args },
  {
    // Answers an odd number after a macrotask (like a reply over a socket), an even one at once.
    name: "sometimes-later",
    handler: (args) =>
      typeof args === "number" && args % 2 === 1
        ? new Promise((resolve) => setImmediate(() => resolve(args)))
        : args,
  },
  { name: "record", handler: (args) => void events.push(String(args)) },
  {
    name: "fail",
    handler: () => {
      throw Object.assign(new Error("No object matches name: foo"), { code: "NO_OBJECT" });
    },
  },
  {
    // A plain error that says the host may have run the command, as a link error does.
    name: "lost",
    handler: () => {
      throw Object.assign(new Error("the link died mid-call"), {
        code: "HOST_GONE",
        completion: "unknown",
      });
    },
  },
  {
    // A refusal that carries facts: `{ data }` JSON or not (`{ bigint: true }`).
    name: "refuse",
    handler: (args) => {
      const bigint = (args as { bigint?: boolean } | null)?.bigint === true;
      throw new CommandError({
        command: "refuse",
        code: "POLICY",
        message: "refuse is refused by the host's policy",
        completion: "not_started",
        data: bigint ? { n: 1n } : { rule: "run-python" },
      });
    },
  },
  {
    name: "tick",
    handler: async (args) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
      return args;
    },
  },
  {
    // Runs until its signal aborts, like a long DCC command that honours cancellation.
    name: "slow",
    handler: (_args, { signal }) => {
      seenToken = currentCancelToken();
      slowStarted.resolve();
      return new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          slowAborted.resolve(true);
          resolve("aborted");
        });
      });
    },
  },
  { name: "bigint", handler: () => ({ n: 12n }) },
  {
    name: "cyclic",
    handler: () => {
      const value: Record<string, unknown> = {};
      value["self"] = value;
      return value;
    },
  },
  { name: "function", handler: () => () => 1 },
  { name: "symbol", handler: () => Symbol("x") },
]);
export const dispatcher = new ToolDispatcher(registry);
export const catalog = new DccApiCatalog("maya", {
  commands: registry.catalogRecords(),
  ranker: "overlap",
});
// Two workers whatever the machine, so a runaway execution cannot starve the others here.
export const pool = new SandboxPool({ size: 2 });
export const executor = new DccApiExecutor("maya", { dispatcher, catalog, pool });

/** Fresh deferreds for the next use of the `slow` command. */
export function resetSlow(): void {
  slowStarted = deferred();
  slowAborted = deferred<boolean>();
  seenToken = undefined;
}

/** The result as a failure; throws on a success. */
export function failed(result: ExecuteResult): Extract<ExecuteResult, { success: false }> {
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.output)}`);
  return result;
}

/** Zeroes the most `tick` commands seen running at once. */
export function resetMaxRunning(): void {
  maxRunning = 0;
}
