/** A mode the catalog's generator tested poll() in, as `bpy.context.mode` names it. */
export type BlenderMode =
  | "OBJECT"
  | "EDIT_MESH"
  | "SCULPT"
  | "PAINT_VERTEX"
  | "PAINT_WEIGHT"
  | "PAINT_TEXTURE"
  | "EDIT_CURVE"
  | "EDIT_TEXT"
  | "EDIT_LATTICE"
  | "EDIT_METABALL"
  | "EDIT_ARMATURE"
  | "POSE"
  | "EDIT_GPENCIL"
  | "PAINT_GPENCIL"
  | "SCULPT_GPENCIL"
  | "WEIGHT_GPENCIL"
  | "EDIT_GREASE_PENCIL"
  | "PAINT_GREASE_PENCIL"
  | "SCULPT_GREASE_PENCIL"
  | "WEIGHT_GREASE_PENCIL";

/** An editor the generator tested poll() under (a `temp_override` of that area); UV_EDITOR is the Image Editor in UV mode. */
export type BlenderArea =
  | "VIEW_3D"
  | "IMAGE_EDITOR"
  | "UV_EDITOR"
  | "NODE_EDITOR"
  | "SEQUENCE_EDITOR"
  | "CLIP_EDITOR"
  | "GRAPH_EDITOR"
  | "DOPESHEET_EDITOR"
  | "NLA_EDITOR"
  | "TEXT_EDITOR"
  | "OUTLINER"
  | "PROPERTIES"
  | "CONSOLE"
  | "INFO"
  | "SPREADSHEET";

/** A value of a parameter default: what Blender's RNA reports, as JSON. */
export type BlenderDefault = boolean | number | string | readonly (boolean | number | string)[];

/** One keyword parameter of an operator (an RNA property of its type). */
export interface BlenderOperatorParameter {
  /** The keyword, e.g. `radius`. */
  readonly name: string;
  /** Blender's property type, lower-cased. */
  readonly type: "boolean" | "int" | "float" | "string" | "enum" | "pointer" | "collection";
  /** Blender's subtype, lower-cased, when not `NONE`: `angle` (radians), `xyz`, `file_path`… */
  readonly subtype?: string;
  /** Array length of a vector or color parameter. */
  readonly length?: number;
  /** Default value; float32 values are written as the shortest decimal that reads back the same. */
  readonly default?: BlenderDefault;
  /** Hard minimum, left out when it is the type's own limit. */
  readonly min?: number;
  /** Hard maximum, left out when it is the type's own limit. */
  readonly max?: number;
  /** Enum identifiers, in Blender's order. */
  readonly items?: readonly string[];
  /** An enum flag: the value is a set (a list) of identifiers. */
  readonly flag?: true;
  /** An enum whose items Blender builds at run time from the context, so none are listed. */
  readonly dynamic?: true;
  /** The RNA struct of a pointer or collection parameter. */
  readonly struct?: string;
  /** The operator refuses to run without this parameter. */
  readonly required?: true;
  /** Blender's description of the parameter. */
  readonly description?: string;
}

/** One `bpy.ops` operator as the catalog's generator read it from Blender. */
export interface BlenderOperator {
  /** The Python id, `module.name`: `mesh.primitive_uv_sphere_add`. */
  readonly name: string;
  /** The label Blender's menus show, e.g. `Add UV Sphere`. */
  readonly label: string;
  /** Blender's description; absent when it has none. */
  readonly description?: string;
  /** `bl_options`: REGISTER, UNDO, INTERNAL, BLOCKING… */
  readonly options?: readonly string[];
  /** Keyword parameters, in Blender's order. */
  readonly params?: readonly BlenderOperatorParameter[];
  /**
   * The modes in which poll() passed, when not every tested mode (`[]`: it passed in none of
   * the tested contexts). Absent: no mode requirement was seen.
   */
  readonly modes?: readonly BlenderMode[];
  /** The editors under which poll() passed, present when it never passed without an editor area. */
  readonly areas?: readonly BlenderArea[];
}
