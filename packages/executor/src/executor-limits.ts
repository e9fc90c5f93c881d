import { DccMcpError } from "@dcc/cancel";

/** Limits of one execution. Every limit a script runs into fails with an error that names it. */
export interface ExecutorLimits {
  /** Default wall-clock timeout in whole seconds when a call gives none (30). */
  timeoutSecs: number;
  /** Largest `timeoutSecs` a call may ask for (300). */
  maxTimeoutSecs: number;
  /** QuickJS heap limit in bytes (64 MiB). */
  memoryBytes: number;
  /** QuickJS stack limit in bytes (256 KiB; larger values are refused, see the README). */
  stackBytes: number;
  /** Largest output, in characters of its JSON text (1 MiB = 1,048,576). */
  maxOutputChars: number;
  /** Largest script, in characters (100,000). */
  maxCodeChars: number;
  /** Most `dispatch` calls one execution may make (10,000). */
  maxDispatchCalls: number;
  /** Most captured log entries (1,000); later ones are counted in a truncation marker. */
  maxLogEntries: number;
  /** Most captured log characters in total (64 KiB = 65,536). */
  maxLogChars: number;
  /** Most images one result carries (4); see `HostImage`. */
  maxImages: number;
  /** Most bytes of encoded images one result carries in all (3 MiB = 3,145,728). */
  maxImageBytes: number;
  /**
   * Largest arguments of one `dispatch` call, in characters of their JSON text (16 MiB =
   * 16,777,216, a DCC link's frame limit); larger ones are refused with `INVALID_ARGS` before
   * they reach the host.
   */
  maxArgsChars: number;
  /**
   * Deepest nesting of one `dispatch` call's arguments, the arguments object being level 1
   * (64); deeper ones are refused with `INVALID_ARGS` before they reach the host. A DCC's link
   * refuses params nested deeper than 64 levels whatever this says.
   */
  maxArgsDepth: number;
}

/** The default {@link ExecutorLimits}. */
export const defaultExecutorLimits: Readonly<ExecutorLimits> = Object.freeze({
  timeoutSecs: 30,
  maxTimeoutSecs: 300,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxOutputChars: 1024 * 1024,
  maxCodeChars: 100_000,
  maxDispatchCalls: 10_000,
  maxLogEntries: 1000,
  maxLogChars: 64 * 1024,
  maxImages: 4,
  maxImageBytes: 3 * 1024 * 1024,
  maxArgsChars: 16 * 1024 * 1024,
  maxArgsDepth: 64,
});

/**
 * Largest stack limit accepted. Sandbox workers get a native stack large enough for it, so deep
 * recursion always ends in the guest's own stack-overflow error, never in the host's.
 */
export const maxStackBytes: number = 256 * 1024;

/**
 * Fills in defaults and checks every value.
 * @throws {DccMcpError} code `INVALID_LIMITS` naming the offending limit.
 */
export function resolveExecutorLimits(limits: Partial<ExecutorLimits> = {}): ExecutorLimits {
  const resolved: ExecutorLimits = { ...defaultExecutorLimits };
  for (const key of Object.keys(defaultExecutorLimits) as Array<keyof ExecutorLimits>) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `limits.${key} must be a positive integer (got ${String(value)})`,
      });
    }
    resolved[key] = value;
  }
  if (resolved.stackBytes > maxStackBytes) {
    throw new DccMcpError({
      code: "INVALID_LIMITS",
      message: `limits.stackBytes must be at most ${maxStackBytes}`,
    });
  }
  if (resolved.timeoutSecs > resolved.maxTimeoutSecs) {
    throw new DccMcpError({
      code: "INVALID_LIMITS",
      message: "limits.timeoutSecs must not exceed limits.maxTimeoutSecs",
    });
  }
  return resolved;
}
