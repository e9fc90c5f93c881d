// Approval rules as servers and workers take them from text: `--ask` (or `DCC_MCP_ASK`) and
// `--ask-rule`, and a call's or a job's pre-approvals. One place, so the reference server, the farm
// workers and the MCP bridge accept and refuse the same things in the same words.
import { DccMcpError } from "@dcc/cancel";
import { type ApprovalRule, approvalRuleNames, commandApprovalRule } from "./approval.ts";
import type { AdapterApprovalOptions } from "./create-adapter-executor.ts";

/** A rule name: lowercase kebab-case, as the executor takes them (`DccApiExecutorOptions.approval`). */
export const ruleNamePattern: RegExp = /^[a-z][a-z0-9-]*$/;
/** Longest rule name taken. */
export const maxRuleNameLength = 64;
/** Most rules one call or job may pre-approve. */
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

/** What {@link parseApprovalFlags} reads. */
export interface ApprovalFlags {
  /** `--ask`: rule names, comma-separated; an empty text turns every rule off. */
  ask?: string | undefined;
  /** `DCC_MCP_ASK`, read when `ask` is undefined. */
  envAsk?: string | undefined;
  /** `--ask-rule` values, each `name=command,command`. */
  askRules?: readonly string[] | undefined;
}

/**
 * The approval rules `--ask` (else `DCC_MCP_ASK`) turns on, and the custom rules `--ask-rule`
 * defines (see {@link commandApprovalRule}); undefined when no rule is on. Each is checked: a name
 * that is neither shared nor defined, a custom rule that reuses a shared name or is defined twice,
 * and one defined but never turned on are refused.
 * @throws {DccMcpError} `INVALID_APPROVAL_RULE`, naming the flag and what to write instead.
 */
export function parseApprovalFlags(flags: ApprovalFlags): AdapterApprovalOptions | undefined {
  const flag = flags.ask;
  const definitions = flags.askRules ?? [];
  const rules: ApprovalRule[] = [];
  for (const definition of definitions) {
    const equals = definition.indexOf("=");
    const name = equals === -1 ? definition : definition.slice(0, equals);
    const commands = equals === -1 ? [] : definition.slice(equals + 1).split(",");
    if (name.length > maxRuleNameLength || !ruleNamePattern.test(name)) {
      throw invalid(
        `--ask-rule ${JSON.stringify(definition)}: the rule's name must be kebab-case (e.g. publish), at most ${maxRuleNameLength} characters, then =<command,...>`,
      );
    }
    if (sharedRuleNames.includes(name)) {
      throw invalid(
        `--ask-rule ${name}: ${name} is a shared rule (${sharedRuleNames.join(", ")}), which the adapter defines; turn it on with --ask ${name}, or give the custom rule another name`,
      );
    }
    if (commands.length === 0 || commands.some((command) => !/^\S+$/.test(command))) {
      throw invalid(
        `--ask-rule ${JSON.stringify(definition)}: name the commands it covers, e.g. --ask-rule ${name}=exportAll,file`,
      );
    }
    if (rules.some((rule) => rule.name === name)) {
      throw invalid(`--ask-rule ${name} is defined twice`);
    }
    rules.push(commandApprovalRule({ name, commands }));
  }
  const source = flag !== undefined ? "--ask" : "DCC_MCP_ASK";
  const text = flag ?? flags.envAsk ?? "";
  const ask = [
    ...new Set(
      text
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    ),
  ];
  const known = [...sharedRuleNames, ...rules.map((rule) => rule.name)];
  for (const name of ask) {
    if (!known.includes(name)) {
      throw invalid(
        `Unknown approval rule ${JSON.stringify(name)} in ${source}: use one of ${known.join(", ")}, or define it with --ask-rule ${ruleNamePattern.test(name) ? name : "<name>"}=<command,...>`,
      );
    }
  }
  const off = rules.filter((rule) => !ask.includes(rule.name)).map((rule) => rule.name);
  if (off.length > 0) {
    throw invalid(
      `--ask-rule ${off.join(", ")} defines a rule that is not on: add it to ${source} (e.g. --ask ${[...ask, ...off].join(",")})`,
    );
  }
  if (ask.length === 0) return undefined;
  return { ask, ...(rules.length === 0 ? {} : { rules }) };
}

function invalid(message: string): DccMcpError {
  return new DccMcpError({ code: "INVALID_APPROVAL_RULE", message });
}
