import type { CommandRecord } from "@dcc/catalog";

/**
 * One command of the Blender catalog as searches return it: an operator (`kind: "operator"`,
 * dispatched as `bpy.ops.<name>(**args)`) or a data-API command (`kind: "data"`).
 */
export interface BlenderCommandRecord extends CommandRecord {
  /** The name `dispatch` takes: `mesh.primitive_uv_sphere_add`, `data.get`. */
  name: string;
  /** TypeScript-like call text with every parameter, its type, default and values. */
  signature: string;
  /** What the command does: Blender's description (its label when Blender has none). */
  description: string;
  /** `"operator"` for `bpy.ops`, `"data"` for the data-API commands. */
  kind: "operator" | "data";
  /** An operator's label in Blender's menus. */
  label?: string;
  /** Where an operator's poll() passed, when it does not pass everywhere (see `operatorContextHint`). */
  context?: string;
  /**
   * Set when the host's policy refuses the operator by name and this host has not lifted its
   * rule: `refused unless the host lifts rule 'python-scripts': it runs Python code`.
   */
  policy?: string;
  /** Example `dispatch` calls of a data command. */
  examples?: readonly string[];
}
