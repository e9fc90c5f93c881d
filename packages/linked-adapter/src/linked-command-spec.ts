import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CommandRecord } from "@dcc/catalog";
import { CommandSpecError } from "./command-spec-error.ts";

/**
 * One command of a linked DCC, declared once in a JSON file that both sides read: the adapter
 * (its catalog record and how it is called) and the DCC's Python side (`register_commands` in
 * `dcc_link` binds it to a handler and checks its arguments against `args`).
 */
export interface LinkedCommandSpec {
  /** The name `dispatch` takes, e.g. `scene.create`. */
  readonly name: string;
  /** TypeScript-like call text, e.g. `scene.create(name: string, size?: number): string`. */
  readonly signature: string;
  /** What it does, in words search finds. */
  readonly description: string;
  /** `dispatch` calls that use it. */
  readonly examples?: readonly string[] | undefined;
  /**
   * The keyword arguments, as a JSON Schema object (`type`, `properties`, `required`,
   * `additionalProperties`, and per property `type`, `enum`, `items`, `minimum`, `maximum`,
   * `description`). The Python side checks each call against it; the catalog shows it.
   */
  readonly args?: Readonly<Record<string, unknown>> | undefined;
  /** The link method that runs it. Default: `name`. */
  readonly method?: string | undefined;
  /**
   * True for a command that only reads: a script's sandbox thread may run it on its own link
   * connection (the dispatch lane) and run it again through the main thread if that breaks.
   */
  readonly lane?: boolean | undefined;
  /**
   * True for a command that answers an image: its Python handler returns `image_result(png)`
   * (from `dcc_link`) and the script gets a `HostImage` (as an `ImageReference`; the MCP result
   * carries the image itself). An answer that is not an image fails with `INVALID_IMAGE`. An
   * image command runs through the main thread even when marked `lane` (it is still read-only).
   */
  readonly image?: boolean | undefined;
}

const specKeys = new Set([
  "name",
  "signature",
  "description",
  "examples",
  "args",
  "method",
  "lane",
  "image",
]);

/**
 * Reads a command spec file: a JSON array of {@link LinkedCommandSpec}s. Checked (every field,
 * unknown keys refused, names unique) and deeply frozen.
 * @throws {CommandSpecError} naming the file, the entry and the field.
 */
export function readCommandSpecs(file: string | URL): readonly LinkedCommandSpec[] {
  const path = typeof file === "string" ? file : fileURLToPath(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CommandSpecError({
      message: `Cannot read the command spec file ${path}: ${(error as Error).message}`,
      file: path,
      cause: error,
    });
  }
  return checkCommandSpecs(parsed, path);
}

/**
 * Checks a list of command specs (as {@link readCommandSpecs} does for a file) and returns it
 * deeply frozen. @throws {CommandSpecError}
 */
export function checkCommandSpecs(specs: unknown, file?: string): readonly LinkedCommandSpec[] {
  const where = file === undefined ? "" : ` in ${file}`;
  if (!Array.isArray(specs)) {
    throw new CommandSpecError({ message: `Command specs${where} must be a JSON array`, file });
  }
  const seen = new Set<string>();
  specs.forEach((spec: unknown, index) => {
    const fail = (problem: string): never => {
      throw new CommandSpecError({
        message: `Command spec ${index}${where}: ${problem}`,
        file,
        index,
      });
    };
    if (spec === null || typeof spec !== "object" || Array.isArray(spec)) fail("is not an object");
    const entry = spec as Record<string, unknown>;
    for (const key of Object.keys(entry)) {
      if (!specKeys.has(key))
        fail(`has an unknown key "${key}" (known: ${[...specKeys].join(", ")})`);
    }
    for (const key of ["name", "signature", "description"]) {
      if (typeof entry[key] !== "string" || entry[key] === "")
        fail(`"${key}" must be a non-empty string`);
    }
    const name = entry["name"] as string;
    if (seen.has(name)) fail(`the name "${name}" is declared twice`);
    seen.add(name);
    const examples = entry["examples"];
    if (
      examples !== undefined &&
      (!Array.isArray(examples) || examples.some((e) => typeof e !== "string"))
    ) {
      fail(`"examples" of ${name} must be an array of strings`);
    }
    const args = entry["args"];
    if (args !== undefined) {
      if (args === null || typeof args !== "object" || Array.isArray(args)) {
        fail(`"args" of ${name} must be a JSON Schema object`);
      }
      if ((args as Record<string, unknown>)["type"] !== "object") {
        fail(`"args" of ${name} must have "type": "object" (commands take keyword arguments)`);
      }
    }
    if (
      entry["method"] !== undefined &&
      (typeof entry["method"] !== "string" || entry["method"] === "")
    ) {
      fail(`"method" of ${name} must be a non-empty string`);
    }
    for (const key of ["lane", "image"]) {
      if (entry[key] !== undefined && typeof entry[key] !== "boolean") {
        fail(`"${key}" of ${name} must be true or false`);
      }
    }
  });
  return deepFreeze(specs as LinkedCommandSpec[]);
}

/**
 * A spec's catalog record: `name`, `signature`, `description`, and `examples` and `args` when
 * present, plus `extra` fields (e.g. `{ kind: "data" }`).
 */
export function commandSpecRecord(
  spec: LinkedCommandSpec,
  extra: Readonly<Record<string, unknown>> = {},
): CommandRecord {
  const record: CommandRecord = {
    name: spec.name,
    signature: spec.signature,
    description: spec.description,
    ...extra,
  };
  if (spec.examples !== undefined) record["examples"] = spec.examples;
  if (spec.args !== undefined) record["args"] = spec.args;
  return record;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
