// What the Blender adapter's approval rules share: the host they ask, and how they word what a
// call touches.
import type { ApprovalCall } from "@dcc/executor";
import { dataBlockOf } from "./data-call-path.ts";

/** What the rules need from the adapter. */
export interface ApprovalHost {
  /** The data folder, absolute. */
  dataDir(): string;
  /** The operators the adapter may have (every tested Blender's and the running one's). */
  operatorNames(): Iterable<string>;
  /** Calls a reading link method of Blender (`data.get`, `blender.file_state`), within `signal`. */
  call(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** Reads a value of Blender's data API by path (`data.get`). */
export type Read = (path: string, signal: AbortSignal) => Promise<unknown>;
/** The open file and whether the scene has unsaved changes (`blender.file_state`). */
export type FileState = (signal: AbortSignal) => Promise<{ filepath: string; unsaved: boolean }>;

/** Reads `blender.file_state` through the host. */
export function fileStateOf(host: ApprovalHost): FileState {
  return async (signal) => {
    const state = (await host.call("blender.file_state", {}, signal)) as {
      filepath?: unknown;
      unsaved?: unknown;
    } | null;
    if (typeof state?.filepath !== "string" || typeof state.unsaved !== "boolean") {
      throw new Error("blender.file_state gave no file state");
    }
    return { filepath: state.filepath, unsaved: state.unsaved };
  };
}

/** Reads through the host's `data.get`. */
export function readOf(host: ApprovalHost): Read {
  return (path, signal) => host.call("data.get", { path }, signal);
}

/** A call's keyword arguments ({} when it has none). */
export function argsOf(call: ApprovalCall): Record<string, unknown> {
  return typeof call.args === "object" && call.args !== null && !Array.isArray(call.args)
    ? (call.args as Record<string, unknown>)
    : {};
}

/** `"3 objects: Cube, Sphere, Light"`, at most ten names shown. */
export function countedNames(noun: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  const more = names.length > 10 ? ` and ${names.length - 10} more` : "";
  return `${names.length} ${names.length === 1 ? noun : pluralOf(noun)}: ${shown}${more}`;
}

function pluralOf(noun: string): string {
  return /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** `meshes` -> `mesh`, `node_groups` -> `node group`, `libraries` -> `library`. */
export function singularOf(collection: string): string {
  const words = collection.replace(/_/g, " ");
  if (words.endsWith("ies")) return `${words.slice(0, -3)}y`;
  if (/(sh|ch|x)es$/.test(words)) return words.slice(0, -2);
  return words.endsWith("s") ? words.slice(0, -1) : words;
}

/** A `data.call`'s positional and keyword arguments, each empty when not given as such. */
export function callArguments(args: Record<string, unknown>): {
  given: readonly unknown[];
  kwargs: Readonly<Record<string, unknown>>;
} {
  const given = args["args"];
  const kwargs = args["kwargs"];
  return {
    given: Array.isArray(given) ? given : [],
    kwargs:
      typeof kwargs === "object" && kwargs !== null && !Array.isArray(kwargs)
        ? (kwargs as Record<string, unknown>)
        : {},
  };
}

/** The names of data-blocks as `data.get` gives them (`{ type, name }` each), sorted. */
export function namesOf(value: unknown): string[] {
  if (!Array.isArray(value)) throw new Error("not a list of data-blocks");
  return value
    .map((item) => {
      const name = (item as { name?: unknown } | null)?.name;
      if (typeof name !== "string") throw new Error("a data-block without a name");
      return name;
    })
    .sort();
}

/** The name of the data-block a `{ "$path": ... }` argument names, read from Blender when needed. */
export async function blockName(value: unknown, read: Read, signal: AbortSignal): Promise<string> {
  const path = (value as { $path?: unknown } | null)?.$path;
  if (typeof path !== "string") return JSON.stringify(value);
  const block = dataBlockOf(path);
  if (block !== undefined) return block.name;
  try {
    const name = ((await read(path, signal)) as { name?: unknown } | null)?.name;
    return typeof name === "string" ? name : path;
  } catch {
    return path;
  }
}
