import { attributeTable } from "./attribute-table.ts";
import type { AttributeData, NodeData } from "./scene-state.ts";

/** A deep copy of a node's attributes. */
export function cloneAttributes(
  attributes: Record<string, AttributeData>,
): Record<string, AttributeData> {
  const copy = attributeTable();
  for (const name of Object.keys(attributes)) {
    const attribute = attributes[name] as AttributeData;
    const clone: AttributeData = { ...attribute };
    if (attribute.children) clone.children = [...attribute.children];
    if (attribute.enumNames) clone.enumNames = [...attribute.enumNames];
    copy[name] = clone;
  }
  return copy;
}

/** A deep copy of a node (its known shape, several times faster than structuredClone). */
export function cloneNode(node: NodeData): NodeData {
  const copy: NodeData = {
    ...node,
    children: [...node.children],
    attributes: cloneAttributes(node.attributes),
  };
  if (node.keys) copy.keys = node.keys.map((key) => ({ ...key }));
  if (node.members) copy.members = [...node.members];
  return copy;
}
