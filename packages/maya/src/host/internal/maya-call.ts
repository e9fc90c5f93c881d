// The dispatch argument convention, shared with the simulated scene: flags are keys of one
// object, positional arguments go in its reserved `args` array; a plain array is `{ args }`
// and a bare value one positional argument.

/** A call as the Maya side takes it. */
export interface MayaCall {
  args: unknown[];
  flags: Record<string, unknown>;
}

/** Splits a script's `dispatch` arguments into positional arguments and flags. */
export function toMayaCall(raw: unknown): MayaCall {
  if (raw === undefined || raw === null) return { args: [], flags: {} };
  if (Array.isArray(raw)) return { args: [...raw], flags: {} };
  if (typeof raw !== "object") return { args: [raw], flags: {} };
  const flags: Record<string, unknown> = {};
  let args: unknown[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === "args") {
      args = Array.isArray(value) ? [...value] : value === undefined ? [] : [value];
    } else if (value !== undefined) {
      flags[key] = value;
    }
  }
  return { args, flags };
}
