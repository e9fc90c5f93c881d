import { invalidArgument } from "./scene-error.ts";

const validName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks a node name the way Maya does (letters, digits and underscores, not starting with a
 * digit). A `#` stands for "the next free number" and is allowed.
 */
export function assertValidName(name: string): void {
  if (!validName.test(name.replaceAll("#", "1"))) {
    throw invalidArgument(`New name has no legal characters or starts with a digit: '${name}'`);
  }
}

/**
 * Maya's auto-naming: `#` (or a name already taken) becomes the first free trailing number.
 * `pSphere#` → `pSphere1`, then `pSphere2`; a taken `ball` → `ball1`; a taken `ball1` → `ball2`.
 */
export function uniqueName(desired: string, taken: (name: string) => boolean): string {
  if (desired.includes("#")) {
    for (let index = 1; ; index++) {
      const candidate = desired.replace("#", String(index));
      if (!taken(candidate)) return candidate;
    }
  }
  if (!taken(desired)) return desired;
  const match = /^(.*?)(\d*)$/.exec(desired);
  const base = match?.[1] ?? desired;
  const start = match?.[2] ? Number(match[2]) + 1 : 1;
  for (let index = start; ; index++) {
    const candidate = `${base}${index}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The shape name Maya derives from a transform name: `pSphere3` → `pSphereShape3`, `ball` → `ballShape`. */
export function shapeNameFor(transformName: string): string {
  const match = /^(.*?)(\d*)$/.exec(transformName);
  return `${match?.[1] ?? transformName}Shape${match?.[2] ?? ""}`;
}

/**
 * A matcher for Maya wildcard patterns: `*` any run and `?` one character, neither crossing a
 * `|`. A pattern with `|` but no leading one matches the end of a DAG path (`grp|*`).
 */
export function wildcard(pattern: string): (text: string) => boolean {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  const body = escaped.replaceAll("*", "[^|]*").replaceAll("?", "[^|]");
  const prefix = pattern.includes("|") && !pattern.startsWith("|") ? "(?:.*\\|)?" : "";
  const regex = new RegExp(`^${prefix}${body}$`);
  return (text) => regex.test(text);
}

/** Flattens positional names: `["a", ["b", "c"]]` → `["a", "b", "c"]`. */
export function flattenNames(values: readonly unknown[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    if (Array.isArray(value)) names.push(...flattenNames(value));
    else if (typeof value === "string") names.push(value);
    else throw invalidArgument(`Expected object names, got ${JSON.stringify(value)}`);
  }
  return names;
}
