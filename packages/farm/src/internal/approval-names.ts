// Approval rule names as the farm takes them: a job's pre-approvals at submission (and again on the
// worker, as the job's data comes from Redis), and a worker's `--ask` and `--ask-rule` flags.
import { approvalRuleNames } from "@dcc/executor";

/** A rule name: lowercase kebab-case, as the executor takes them (`DccApiExecutorOptions.approval`). */
export const ruleNamePattern: RegExp = /^[a-z][a-z0-9-]*$/;
/** Longest rule name taken. */
export const maxRuleNameLength = 64;
/** Most rules one job may pre-approve. */
export const maxPreapproved = 32;

/** The shared rule names (`delete`, `overwrite`, `open`, `render`). */
export const sharedRuleNames: readonly string[] = Object.values(approvalRuleNames);

/**
 * What is wrong with a submission's `preapproved`, or undefined when it is fine (absent, or an
 * array of at most {@link maxPreapproved} kebab-case names of at most {@link maxRuleNameLength}
 * characters).
 */
export function preapprovedProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    return `preapproved must be an array of approval rule names, not ${describe(value)}`;
  }
  if (value.length > maxPreapproved) {
    return `preapproved names ${value.length} rules; at most ${maxPreapproved} are taken`;
  }
  for (const [index, name] of value.entries()) {
    if (typeof name !== "string") {
      return `preapproved[${index}] must be a rule name (a string), not ${describe(name)}`;
    }
    if (name.length > maxRuleNameLength || !ruleNamePattern.test(name)) {
      return `preapproved[${index}] ${JSON.stringify(name.slice(0, maxRuleNameLength + 1))} is not a rule name: rule names are kebab-case (like ${sharedRuleNames.join(", ")}), at most ${maxRuleNameLength} characters`;
    }
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string"
    ? `the string ${JSON.stringify(value.slice(0, 40))}`
    : typeof value;
}
