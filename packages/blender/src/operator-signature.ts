import type { BlenderOperator, BlenderOperatorParameter } from "./blender-operator.ts";

// Bounds at or beyond this size are Blender's "practically unlimited" (±1e12 for locations).
const unboundedLimit = 1e9;

// Subtypes worth a word in the signature; the rest (xyz, distance…) say nothing the type does not.
const subtypeNotes: Readonly<Record<string, string>> = {
  angle: "radians",
  euler: "radians",
  factor: "factor",
  percentage: "percent",
  file_path: "file path",
  dir_path: "directory path",
  file_name: "file name",
  color: "color",
  color_gamma: "color",
  matrix: "matrix",
  pixel: "pixels",
};

// The file browser's own settings, which every file operator carries (filter_blender, sort_method…):
// noise in a scripted call, so the signature counts them instead of listing them.
const fileBrowserSettings: ReadonlySet<string> = new Set([
  "hide_props_region",
  "display_type",
  "sort_method",
  "filemode",
]);

function isFileBrowserSetting(param: BlenderOperatorParameter): boolean {
  return param.name.startsWith("filter_") || fileBrowserSettings.has(param.name);
}

/**
 * TypeScript-like call text of an operator with every keyword parameter, its type, default,
 * enum values and range:
 * `mesh.primitive_uv_sphere_add(args?: { segments?: int = 32 /* 3..100000 *\/; …; location?:
 * float[3] = [0, 0, 0] }): OperatorReport`. `args` is the keyword object `dispatch` passes; the result
 * is the adapter's report of what the operator did (its result set, such as `["FINISHED"]`, and
 * the data-blocks it created or removed). Comments hold no `,` or `;` so that
 * the catalog's signature scanner reads only the parameter names. The file browser's settings
 * (`filter_*`, `sort_method`…) are counted in a closing comment, not listed.
 */
export function operatorSignature(operator: BlenderOperator): string {
  const all = operator.params ?? [];
  const params = all.filter((param) => !isFileBrowserSetting(param));
  const hidden = all.length - params.length;
  if (params.length === 0 && hidden === 0) return `${operator.name}(): OperatorReport`;
  const required = params.some((param) => param.required === true);
  const fields = params.map(parameterText);
  const note = `/* +${hidden} file browser settings */`;
  if (hidden > 0) fields.push(`${fields.pop() ?? ""} ${note}`.trim());
  return `${operator.name}(args${required ? "" : "?"}: { ${fields.join("; ")} }): OperatorReport`;
}

function parameterText(param: BlenderOperatorParameter): string {
  let text = `${param.name}${param.required ? "" : "?"}: ${typeText(param)}`;
  const value = defaultText(param);
  if (value !== undefined) text += ` = ${value}`;
  const notes = noteText(param);
  if (notes !== "") text += ` /* ${notes} */`;
  return text;
}

function typeText(param: BlenderOperatorParameter): string {
  switch (param.type) {
    case "enum": {
      if (param.items === undefined) return "string";
      const union = param.items.map((item) => JSON.stringify(item)).join(" | ");
      return param.flag ? `(${union})[]` : union;
    }
    case "pointer":
      return param.struct ?? "unknown";
    case "collection":
      return `${param.struct ?? "unknown"}[]`;
    default:
      return param.length === undefined ? param.type : `${param.type}[${param.length}]`;
  }
}

function defaultText(param: BlenderOperatorParameter): string | undefined {
  if (param.default === undefined) return undefined;
  if (param.type === "enum" && param.flag && Array.isArray(param.default)) {
    return `[${param.default.map((item) => JSON.stringify(item)).join(", ")}]`;
  }
  if (Array.isArray(param.default)) return `[${param.default.join(", ")}]`;
  return JSON.stringify(param.default);
}

function noteText(param: BlenderOperatorParameter): string {
  const notes: string[] = [];
  if (param.dynamic) notes.push("values depend on the scene");
  const unit = param.subtype === undefined ? undefined : subtypeNotes[param.subtype];
  if (unit !== undefined) notes.push(unit);
  const min = bounded(param.min);
  const max = bounded(param.max);
  if (min !== undefined && max !== undefined) notes.push(`${min}..${max}`);
  else if (min !== undefined) notes.push(`>= ${min}`);
  else if (max !== undefined) notes.push(`<= ${max}`);
  return notes.join(" ");
}

function bounded(value: number | undefined): number | undefined {
  return value === undefined || Math.abs(value) >= unboundedLimit ? undefined : value;
}
