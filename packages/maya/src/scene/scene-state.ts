/** The type of a simulated attribute, in Maya's vocabulary (`getAttr -type`). */
export type AttributeType =
  | "double"
  | "float"
  | "long"
  | "short"
  | "bool"
  | "enum"
  | "string"
  | "double3"
  | "float3"
  | "message";

/** A scalar attribute value; compound attributes keep their values in their children. */
export type ScalarValue = number | boolean | string | null;

/** One attribute of a node. Compound attributes (translate, color…) list their children. */
export interface AttributeData {
  /** Maya short name (`tx` for `translateX`). */
  shortName: string;
  /** Attribute type. */
  type: AttributeType;
  /** Value of a scalar attribute; `null` for compound and message attributes. */
  value: ScalarValue;
  /** Long names of the children of a compound attribute. */
  children?: string[];
  /** Long name of the compound this attribute belongs to. */
  parent?: string;
  /** Shown in the channel box and keyed by a bare `setKeyframe`. */
  keyable: boolean;
  /** `setAttr -lock`. */
  locked: boolean;
  /** Added with `addAttr` (listed by `listAttr -userDefined`). */
  dynamic: boolean;
  /** Lower bound, clamped on set. */
  min?: number;
  /** Upper bound, clamped on set. */
  max?: number;
  /** Names of an enum attribute's values. */
  enumNames?: string[];
}

/** One key of an animation curve: time and value; `step` holds the value until the next key. */
export interface KeyData {
  time: number;
  value: number;
  step: boolean;
}

/** One node of the simulated dependency graph. DAG nodes also have a parent and children. */
export interface NodeData {
  id: number;
  name: string;
  type: string;
  /** Parent id for DAG nodes; `null` under the world (and for non-DAG nodes). */
  parent: number | null;
  children: number[];
  /** Attributes by long name, in creation order. */
  attributes: Record<string, AttributeData>;
  /** Keys of an animation curve node, sorted by time. */
  keys?: KeyData[];
  /** Member ids of a set or shading group, in insertion order. */
  members?: number[];
}

/** A connection from `source` (node id + long attribute name) to `destination`. */
export interface ConnectionData {
  sourceNode: number;
  sourceAttribute: string;
  destinationNode: number;
  destinationAttribute: string;
}

/** Playback range and time settings (`playbackOptions`). */
export interface PlaybackData {
  minTime: number;
  maxTime: number;
  animationStartTime: number;
  animationEndTime: number;
  by: number;
  playbackSpeed: number;
}

/** The whole scene as plain JSON: what undo snapshots and scene files contain. */
export interface SceneState {
  nextId: number;
  /** Nodes by id (as a string key, so the state round-trips through JSON). */
  nodes: Record<string, NodeData>;
  selection: number[];
  connections: ConnectionData[];
  currentTime: number;
  playback: PlaybackData;
}
