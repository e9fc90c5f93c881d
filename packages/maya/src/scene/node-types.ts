// The simulated node types: each declares its base type and its own attributes (in
// `node-types/`); the inheritance chain, and whether a type is a DAG node or a shape, follow from
// the bases.
import type { AttributeTemplate, NodeTypeEntry } from "./node-types/attribute-template.ts";
import { dagNodeTypes } from "./node-types/dag-node-types.ts";
import { historyNodeTypes } from "./node-types/history-node-types.ts";
import { shadingNodeTypes } from "./node-types/shading-node-types.ts";
import { utilityNodeTypes } from "./node-types/utility-node-types.ts";

/** Description of a simulated node type. */
export interface NodeTypeInfo {
  /** Type chain from the root, ending with the type itself (`nodeType -inherited`). */
  inherited: string[];
  /** True for DAG nodes (they have a place in the hierarchy): types derived from `dagNode`. */
  dag: boolean;
  /** True for shape nodes: types derived from `shape`. */
  shape: boolean;
  attributes: AttributeTemplate[];
}

const types: Readonly<Record<string, NodeTypeEntry>> = {
  ...utilityNodeTypes,
  ...dagNodeTypes,
  ...historyNodeTypes,
  ...shadingNodeTypes,
};

const infos = new Map<string, NodeTypeInfo>();
for (const [type, entry] of Object.entries(types)) {
  const inherited: string[] = [];
  for (let current: string | null = type; current; current = types[current]?.base ?? null) {
    inherited.unshift(current);
  }
  infos.set(type, {
    inherited,
    dag: inherited.includes("dagNode"),
    shape: inherited.includes("shape"),
    attributes: entry.attributes,
  });
}

const creatable = Object.keys(types)
  .filter((type) => types[type]?.abstract !== true)
  .sort();

/** The simulated node types `createNode` accepts (those not abstract in Maya), sorted. */
export function creatableNodeTypes(): string[] {
  return [...creatable];
}

/** Information about a node type, or `undefined` when the simulation does not know it. */
export function nodeTypeInfo(type: string): NodeTypeInfo | undefined {
  const info = infos.get(type);
  return info === undefined ? undefined : { ...info, inherited: [...info.inherited] };
}

/** True when `type` is `base` or derives from it (`ls -type` matches derived types too). */
export function isTypeOf(type: string, base: string): boolean {
  return infos.get(type)?.inherited.includes(base) ?? false;
}
