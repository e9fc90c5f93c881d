// Host commands that misbehave on purpose, registered beside the simulated Maya commands.
import type { CommandDefinition } from "@dcc/executor";

/** What the fault commands observed, for assertions. */
export interface FaultState {
  /** Calls of `faultMark` (a script's "I am running now" signal). */
  marks: number;
  /** Calls of `faultCount`. */
  counted: number;
  /** Calls of `faultCount` per `key` argument, so concurrent scripts can be told apart. */
  countedBy: Map<string, number>;
  /** `faultHangAbortable` calls whose signal aborted. */
  abortedHangs: number;
  /** `faultSlow` calls that started. */
  startedSlow: number;
  /** `faultSlow` calls that saw their signal abort. */
  abortedSlow: number;
  /** Pending `faultHang` calls, released by {@link releaseHangs}. */
  hangs: Array<() => void>;
}

/** A fresh state. */
export function newFaultState(): FaultState {
  return {
    marks: 0,
    counted: 0,
    countedBy: new Map(),
    abortedHangs: 0,
    startedSlow: 0,
    abortedSlow: 0,
    hangs: [],
  };
}

/** Lets every pending `faultHang` call finish (so the dispatcher's queue drains). */
export function releaseHangs(state: FaultState): void {
  for (const release of state.hangs.splice(0)) release();
}

class CodedError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The fault commands over `state`. */
export function faultCommands(state: FaultState): CommandDefinition[] {
  return [
    {
      name: "faultMark",
      description: "Records that the script reached this point.",
      handler: () => ++state.marks,
    },
    {
      name: "faultCount",
      description: "Counts calls, in total and per `key`.",
      handler: (args) => {
        const key = String((args as { key?: unknown } | null)?.key ?? "");
        state.countedBy.set(key, (state.countedBy.get(key) ?? 0) + 1);
        return ++state.counted;
      },
    },
    {
      name: "faultThrow",
      description: "Always throws an error with a code.",
      handler: () => {
        throw new CodedError("FAULT_BOOM", "faultThrow failed on purpose");
      },
    },
    {
      name: "faultThrowValue",
      description: "Throws a value that is not an Error.",
      handler: () => {
        throw { weird: true };
      },
    },
    {
      name: "faultReject",
      description: "Returns a rejected promise.",
      handler: () => Promise.reject(new TypeError("faultReject rejected on purpose")),
    },
    {
      name: "faultHang",
      description: "Never settles until the test releases it; ignores its signal.",
      handler: () => new Promise<void>((resolve) => state.hangs.push(resolve)),
    },
    {
      name: "faultHangAbortable",
      description: "Never settles on its own, but rejects when its signal aborts.",
      handler: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener(
            "abort",
            () => {
              state.abortedHangs++;
              reject(new CodedError("ABORTED", "faultHangAbortable saw its signal abort"));
            },
            { once: true },
          );
        }),
    },
    {
      name: "faultSlow",
      description: "Takes `ms` milliseconds (default 300), stopping early when aborted.",
      handler: (args, { signal }) =>
        new Promise((resolve, reject) => {
          state.startedSlow++;
          const ms =
            typeof (args as { ms?: unknown })?.ms === "number" ? (args as { ms: number }).ms : 300;
          const timer = setTimeout(() => resolve("slow done"), ms);
          signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              state.abortedSlow++;
              reject(new CodedError("ABORTED", "faultSlow aborted"));
            },
            { once: true },
          );
        }),
    },
    { name: "faultBigInt", description: "Returns a BigInt.", handler: () => 12345678901234567890n },
    { name: "faultFunction", description: "Returns a function.", handler: () => () => 1 },
    { name: "faultSymbol", description: "Returns a symbol.", handler: () => Symbol("fault") },
    {
      name: "faultCyclic",
      description: "Returns a cyclic object.",
      handler: () => {
        const value: Record<string, unknown> = { name: "loop" };
        value["self"] = value;
        return value;
      },
    },
    {
      name: "faultNestedFunction",
      description: "Returns an object with a function inside.",
      handler: () => ({ ok: 1, run: () => 2 }),
    },
    {
      name: "faultHuge",
      description: "Returns a 5 MB string.",
      handler: () => "h".repeat(5 * 1024 * 1024),
    },
  ];
}
