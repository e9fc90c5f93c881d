import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, resolve, sep } from "node:path";
import {
  type AttributeGroup,
  namesOnAnyNode,
  plugAttributeNames,
} from "./internal/maya-policy-attributes.ts";

/** A call the policy refuses: the rule that refuses it and a message naming what and why. */
export interface MayaPolicyRefusal {
  readonly rule: string;
  readonly message: string;
}

/** Options for {@link mayaPolicyRefusal}. */
export interface MayaPolicyOptions {
  /** The data folder (absolute): file paths must stay inside it. */
  dataDir: string;
  /** Rule names whose refusals are lifted. */
  allow?: readonly string[] | undefined;
}

interface RuleData {
  rules: Record<string, string>;
  commands: Record<string, string>;
  flags: Record<string, Record<string, string>>;
  queryFlags: Record<string, string[]>;
  paths: Record<string, { args: boolean; flags: string[] }>;
  names: Record<string, Record<string, string>>;
  codeNodeTypes: string[];
  catalog: string[];
  loadingFileFlags: string[];
  codeAttributes: AttributeGroup[];
  filenameAttributes: AttributeGroup[];
  plugCommands: Record<
    string,
    { target: number[] | "all"; sets?: boolean; connects?: boolean; nameFlags: string[] }
  >;
}

let data: RuleData | undefined;
let catalog: ReadonlySet<string> | undefined;
let codeNames: ReadonlySet<string> | undefined;
let filenameNames: ReadonlySet<string> | undefined;

/**
 * The policy's rule data: `python/dcc_maya/policy.generated.json`, which the Maya side reads too
 * (the same relative path from `src/host` and `dist/host`).
 */
export function mayaPolicyData(): RuleData {
  data ??= JSON.parse(
    readFileSync(new URL("../../python/dcc_maya/policy.generated.json", import.meta.url), "utf8"),
  ) as RuleData;
  return data;
}

/** The names of the policy's rules, with the reason each states. */
export function mayaPolicyRules(): Readonly<Record<string, string>> {
  return mayaPolicyData().rules;
}

/**
 * What the policy says about `command` with these positional arguments and flags before it is
 * sent to Maya: undefined when allowed, or the refusal. The Maya side checks again, with the
 * scene: node types, short names and aliases of attributes, Maya's own `usedAsFilename` marks,
 * and the code a scene file would bring in before it is opened or imported.
 */
export function mayaPolicyRefusal(
  command: string,
  call: { args: readonly unknown[]; flags: Readonly<Record<string, unknown>> },
  options: MayaPolicyOptions,
): MayaPolicyRefusal | undefined {
  const rules = mayaPolicyData();
  const lifted = (rule: string): boolean => options.allow?.includes(rule) ?? false;
  const refuse = (rule: string, what: string, detail = ""): MayaPolicyRefusal => ({
    rule,
    message: `${what} is refused by the policy (rule '${rule}': ${rules.rules[rule]}${detail ? `; ${detail}` : ""})`,
  });
  catalog ??= new Set(rules.catalog);
  // Named refusals first, so a known command outside the catalog (savePrefs) says why.
  const commandRule = rules.commands[command];
  if (commandRule !== undefined && !lifted(commandRule)) {
    return refuse(commandRule, `the command ${command}`);
  }
  if (!catalog.has(command) && !lifted("not-in-catalog")) {
    return refuse("not-in-catalog", `the command ${command}`);
  }
  const names = rules.names[command];
  const refused = rules.flags[command] ?? {};
  const query = call.flags["query"] === true || call.flags["q"] === true;
  const flags: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.flags)) {
    const long = names === undefined ? key : names[key];
    if (long === undefined) {
      if (lifted("long-flag-names")) continue;
      return refuse("long-flag-names", `the flag '${key}' of ${command}`, "use its long name");
    }
    const flagRule = refused[long];
    // A query of code or of a setting reads it (`q: true, command: true`); an action flag
    // (`savePluginPrefs`) acts in query mode too.
    const read = query && value === true && (rules.queryFlags[command]?.includes(long) ?? false);
    if (flagRule !== undefined && !read && !lifted(flagRule)) {
      return refuse(flagRule, `the flag '${long}' of ${command}`);
    }
    flags[long] = value;
  }
  const first = call.args[0];
  if (
    (command === "createNode" || command === "shadingNode") &&
    typeof first === "string" &&
    rules.codeNodeTypes.includes(first) &&
    !lifted("code-nodes")
  ) {
    return refuse("code-nodes", `${command} of type '${first}'`);
  }
  if (
    command === "file" &&
    flags["executeScriptNodes"] === true &&
    rules.loadingFileFlags.some((name) => flags[name] === true) &&
    !lifted("script-nodes")
  ) {
    return refuse("script-nodes", "file with executeScriptNodes=True");
  }
  const plugRefusal = plugCheck(command, call.args, flags, query, options, refuse, lifted);
  if (plugRefusal !== undefined) return plugRefusal;
  const paths = rules.paths[command];
  if (paths === undefined || lifted("data-folder")) return undefined;
  const checks: Array<[string, unknown]> = [];
  if (paths.args) {
    for (const [index, value] of call.args.entries())
      checks.push([`${command} argument ${index}`, value]);
  }
  for (const name of paths.flags) {
    if (name in flags && !(query && flags[name] === true))
      checks.push([`${command}(${name})`, flags[name]]);
  }
  for (const [label, value] of checks) {
    for (const path of strings(value)) {
      const problem = outside(path, options.dataDir);
      if (problem !== undefined) return refuse("data-folder", `${label} '${path}'`, problem);
    }
  }
  return undefined;
}

type Refuse = (rule: string, what: string, detail?: string) => MayaPolicyRefusal;

/**
 * `setAttr`, `connectAttr`, `addAttr`, `aliasAttr` and `copyAttr` on attributes Maya runs as
 * code (refused) or reads as file names (values confined to the data folder; a connection,
 * whose value cannot be checked, refused). Matches attribute names only: see the Maya side.
 */
function plugCheck(
  command: string,
  args: readonly unknown[],
  flags: Readonly<Record<string, unknown>>,
  query: boolean,
  options: MayaPolicyOptions,
  refuse: Refuse,
  lifted: (rule: string) => boolean,
): MayaPolicyRefusal | undefined {
  const rules = mayaPolicyData();
  const spec = rules.plugCommands[command];
  if (spec === undefined || query) return undefined;
  codeNames ??= namesOnAnyNode(rules.codeAttributes);
  filenameNames ??= namesOnAnyNode(rules.filenameAttributes);
  const targets: string[] = [];
  for (const [index, value] of args.entries()) {
    // A plug has a dot; a bare argument is a node (addAttr, copyAttr) or an alias's name.
    if (typeof value !== "string" || !value.includes(".")) continue;
    if (spec.target === "all" || spec.target.includes(index)) targets.push(value);
  }
  // addAttr -ln/-sn and copyAttr -at name attributes too (flags are long names by now).
  for (const name of spec.nameFlags) {
    for (const value of strings(flags[name])) targets.push(value);
  }
  // Emptying a hook (`setAttr defaultRenderGlobals.preMel ""`) runs nothing later.
  const clears = spec.sets === true && args.length > 1 && args.slice(1).every((v) => v === "");
  for (const target of targets) {
    const names = plugAttributeNames(target);
    if (names.some((name) => codeNames?.has(name)) && !clears && !lifted("code-attribute")) {
      return refuse("code-attribute", `${command} on '${target}'`);
    }
    if (!names.some((name) => filenameNames?.has(name)) || lifted("data-folder")) continue;
    if (spec.connects || command === "aliasAttr" || command === "copyAttr") {
      return refuse(
        "data-folder",
        `${command} into '${target}'`,
        "a file-name attribute takes a checked path from setAttr, not a connection, alias or copy",
      );
    }
    if (spec.sets) {
      for (const path of args.slice(1).flatMap(strings)) {
        const problem = outside(path, options.dataDir);
        if (problem !== undefined) {
          return refuse("data-folder", `setAttr ${target} '${path}'`, problem);
        }
      }
    }
  }
  return undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.flatMap(strings) : [];
}

function outside(path: string, dataDir: string): string | undefined {
  if (path === "") return undefined;
  if (/[$%]/.test(path) || path.startsWith("~")) {
    return "Maya would expand its variables; give a plain path";
  }
  let root = resolve(dataDir);
  try {
    root = realpathSync(root);
  } catch {
    // not created yet: the Maya side creates it
  }
  const absolute = isAbsolute(path) ? resolve(path) : resolve(root, path);
  if (absolute === root || absolute.startsWith(root + sep)) return undefined;
  return `the data folder is '${root}'`;
}
