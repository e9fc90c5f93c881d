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

const reviewedUrl = new URL(
  "../../python/dcc_blender/reviewed_operators.generated.json",
  import.meta.url,
);
let reviewed: ReadonlySet<string> | undefined;

/**
 * The operators of the tested Blenders, whose risks the policy's rules were reviewed against
 * (`python/dcc_blender/reviewed_operators.generated.json`); the host refuses any other by default.
 */
export function reviewedOperators(): ReadonlySet<string> {
  reviewed ??= new Set(
    (JSON.parse(readFileSync(reviewedUrl, "utf8")) as { operators: string[] }).operators,
  );
  return reviewed;
}

/** The mark of an operator outside {@link reviewedOperators}, as the host words its refusal. */
export const unreviewedMark: OperatorPolicyMark = Object.freeze({
  rule: "unreviewed-operator",
  reason:
    "it is not one of the operators of the tested Blenders, whose risks were reviewed (an add-on's, or new in this Blender)",
});
