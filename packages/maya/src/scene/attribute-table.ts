import { nodeTypeInfo } from "./node-types.ts";
import type { AttributeData, ScalarValue } from "./scene-state.ts";

/**
 * An empty attribute table. It has no prototype: attribute names come from scripts, and on a
 * plain object `__proto__` or `constructor` would reach the host's `Object.prototype`.
 */
export function attributeTable(
  entries?: Record<string, AttributeData>,
): Record<string, AttributeData> {
  const table = Object.create(null) as Record<string, AttributeData>;
  if (entries)
    for (const name of Object.keys(entries)) table[name] = entries[name] as AttributeData;
  return table;
}

/** Fresh attribute records for a node of `type`, compound children included. */
export function defaultAttributes(type: string): Record<string, AttributeData> {
  const info = nodeTypeInfo(type);
  const attributes = attributeTable();
  for (const template of info?.attributes ?? []) {
    const keyable = template.keyable ?? false;
    if (template.children) {
      const values = template.value as number[];
      attributes[template.long] = {
        shortName: template.short,
        type: template.type,
        value: null,
        children: template.children.map(([long]) => long),
        keyable: false,
        locked: false,
        dynamic: false,
      };
      template.children.forEach(([long, short], index) => {
        attributes[long] = {
          shortName: short,
          type: template.type === "float3" ? "float" : "double",
          value: values[index] ?? 0,
          parent: template.long,
          keyable,
          locked: false,
          dynamic: false,
        };
      });
    } else {
      const attribute: AttributeData = {
        shortName: template.short,
        type: template.type,
        value: template.value as ScalarValue,
        keyable,
        locked: false,
        dynamic: false,
      };
      if (template.enumNames) attribute.enumNames = template.enumNames;
      attributes[template.long] = attribute;
    }
  }
  return attributes;
}
