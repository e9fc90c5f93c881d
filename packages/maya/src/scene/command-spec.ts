import { invalidArgument, SceneError, SceneErrorCode } from "./scene-error.ts";

/** How a flag's value is checked. */
export type FlagKind = "bool" | "number" | "int" | "string" | "vector3" | "strings" | "any";

/** One flag of a simulated command: Maya's long and short names. */
export interface FlagSpec {
  long: string;
  short: string | undefined;
  kind: FlagKind;
}

/** A parsed call: positional arguments and flags by long name. */
export interface SceneCall {
  command: string;
  args: unknown[];
  flags: Record<string, unknown>;
  /** `query`/`q` was set. */
  query: boolean;
  /** `edit`/`e` was set. */
  edit: boolean;
}

/**
 * A simulated command. `flags` is compact text: `"name|n:string radius|r:number"`; a missing
 * short name is written `"position:vector3"`. Commands with `queryable`/`editable` also accept
 * `query|q` and `edit|e`.
 */
export interface SceneCommandSpec<Scene> {
  name: string;
  /** One line for the catalog and the README. */
  summary: string;
  /** Positional arguments in Maya's order, e.g. `"objects?: string[]"`. */
  positional?: string;
  /** Return type as TypeScript-like text. */
  returns: string;
  flags: string;
  queryable?: boolean;
  editable?: boolean;
  /** True when a non-query call changes the scene (and so is undoable and marks it modified). */
  mutates: boolean;
  run(scene: Scene, call: SceneCall): unknown;
}

/** Parses the compact flag text of a {@link SceneCommandSpec}. */
export function parseFlagSpecs(text: string, queryable: boolean, editable: boolean): FlagSpec[] {
  const specs = text
    .split(/\s+/)
    .filter((part) => part !== "")
    .map((part): FlagSpec => {
      const [names = "", kind = "bool"] = part.split(":");
      const [long = "", short] = names.split("|");
      return { long, short, kind: kind as FlagKind };
    });
  if (queryable) specs.push({ long: "query", short: "q", kind: "bool" });
  if (editable) specs.push({ long: "edit", short: "e", kind: "bool" });
  return specs;
}

function flagLabel(spec: FlagSpec): string {
  return spec.short ? `${spec.long} (${spec.short})` : spec.long;
}

/**
 * Applies the dispatch convention: flags are keys of one object, positional arguments go in
 * the reserved `args` array (a plain array is shorthand for `{ args }`). Short flag names map to
 * long ones; an unknown flag fails with a message naming it and the supported flags.
 */
export function parseCall(command: string, specs: readonly FlagSpec[], raw: unknown): SceneCall {
  const call: SceneCall = { command, args: [], flags: {}, query: false, edit: false };
  if (raw === undefined || raw === null) return call;
  if (Array.isArray(raw)) {
    call.args = [...raw];
    return call;
  }
  if (typeof raw !== "object") {
    // A bare value is one positional argument: dispatch("objExists", "pSphere1").
    call.args = [raw];
    return call;
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (key === "args") {
      call.args = Array.isArray(value) ? [...value] : value === undefined ? [] : [value];
      continue;
    }
    const spec = specs.find((candidate) => candidate.long === key || candidate.short === key);
    if (!spec) {
      const known = specs.map(flagLabel).join(", ") || "none";
      throw new SceneError({
        code: SceneErrorCode.invalidFlag,
        command,
        message: `Invalid flag '${key}' for ${command}. Supported flags: ${known}. Positional arguments go in 'args'.`,
      });
    }
    call.flags[spec.long] = value;
  }
  call.query = call.flags["query"] === true;
  call.edit = call.flags["edit"] === true;
  for (const spec of specs) {
    const value = call.flags[spec.long];
    if (value === undefined) {
      delete call.flags[spec.long];
      continue;
    }
    // In query mode a queried flag is just `true` (Python: `q=True, translation=True`).
    if (call.query && value === true) continue;
    call.flags[spec.long] = checkFlag(command, spec, value);
  }
  return call;
}

function checkFlag(command: string, spec: FlagSpec, value: unknown): unknown {
  const fail = (expected: string): never => {
    throw invalidArgument(
      `Flag '${spec.long}' of ${command} expects ${expected}, got ${JSON.stringify(value)}`,
    );
  };
  switch (spec.kind) {
    case "bool":
      if (typeof value === "boolean") return value;
      if (value === 0 || value === 1) return value === 1;
      return fail("a boolean");
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value : fail("a number");
    case "int":
      return typeof value === "number" && Number.isInteger(value) ? value : fail("an integer");
    case "string":
      return typeof value === "string" ? value : fail("a string");
    case "vector3":
      return Array.isArray(value) &&
        value.length === 3 &&
        value.every((item) => typeof item === "number" && Number.isFinite(item))
        ? value
        : fail("three numbers [x, y, z]");
    case "strings":
      if (typeof value === "string") return [value];
      return Array.isArray(value) && value.every((item) => typeof item === "string")
        ? value
        : fail("a string or an array of strings");
    default:
      return value;
  }
}

/** TypeScript-like signature text of a command for the catalog. */
export function signatureOf(spec: SceneCommandSpec<unknown>): string {
  const flags = parseFlagSpecs(spec.flags, spec.queryable ?? false, spec.editable ?? false)
    .map((flag) => `${flag.long}?: ${tsType(flag.kind)}`)
    .join("; ");
  const positional = spec.positional ? `args?: [${spec.positional}], ` : "";
  return `${spec.name}({ ${positional}${flags} }): ${spec.returns}`;
}

function tsType(kind: FlagKind): string {
  switch (kind) {
    case "bool":
      return "boolean";
    case "int":
    case "number":
      return "number";
    case "vector3":
      return "[number, number, number]";
    case "strings":
      return "string | string[]";
    case "string":
      return "string";
    default:
      return "unknown";
  }
}
