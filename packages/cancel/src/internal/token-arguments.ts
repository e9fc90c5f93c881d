/**
 * Checks on what callers hand to `CancelToken`. A token built from the wrong shape (a number, a
 * Python-style `{ job_id }`) would otherwise run with no job id and nobody would notice, so the
 * constructor refuses it with a `TypeError` that says what was wrong.
 */

/** A short description of `value` for an error message: `number 42`, `null`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** True for `{ … }`-like values: objects that are not arrays. */
export function isOptionsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Throws unless every own key of `options` is in `allowed`. */
export function checkKnownKeys(
  where: string,
  options: Record<string, unknown>,
  allowed: readonly string[],
): void {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(
        `${where}: unknown option ${JSON.stringify(key)} (expected ${allowed.join(" or ")})`,
      );
    }
  }
}

/** Throws unless `jobId` is a string or `undefined`. */
export function checkJobId(where: string, jobId: unknown): void {
  if (jobId !== undefined && typeof jobId !== "string") {
    throw new TypeError(
      `${where}: options.jobId must be a string or undefined, got ${describeValue(jobId)}`,
    );
  }
}

/** Throws unless `parent` is `undefined` or a probe: a boolean `cancelled`, optional `signal`. */
export function checkParent(where: string, parent: unknown): void {
  if (parent === undefined) return;
  if (!isOptionsObject(parent) || typeof parent["cancelled"] !== "boolean") {
    throw new TypeError(
      `${where}: options.parent must be a CancelToken or a probe with a boolean "cancelled", got ${describeValue(parent)}`,
    );
  }
  const signal = parent["signal"];
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(
      `${where}: options.parent.signal must be an AbortSignal or undefined, got ${describeValue(signal)}`,
    );
  }
}
