import { readFileSync } from "node:fs";

const dataUrl = new URL("../data/operator-policy.generated.json", import.meta.url);

/** The rule that refuses an operator by name, and why. */
export interface OperatorPolicyMark {
  readonly rule: string;
  readonly reason: string;
}

let marks: ReadonlyMap<string, OperatorPolicyMark> | undefined;

/**
 * The operators the host's policy refuses by name (`src/data/operator-policy.generated.json`,
 * generated from `python/dcc_blender/policy.py`, which decides): name -> rule and reason.
 * Read once, then cached.
 */
export function operatorPolicy(): ReadonlyMap<string, OperatorPolicyMark> {
  marks ??= new Map(
    Object.entries(JSON.parse(readFileSync(dataUrl, "utf8")) as Record<string, OperatorPolicyMark>),
  );
  return marks;
}
