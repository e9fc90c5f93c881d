import { evaluateCurve } from "./animation.ts";
import { isTypeOf } from "./node-types.ts";
import { invalidArgument, invalidState, noObject } from "./scene-error.ts";
import type { SceneGraph } from "./scene-graph.ts";
import type { AttributeData, ConnectionData, NodeData, ScalarValue } from "./scene-state.ts";

/** A resolved `node.attribute` reference. */
export interface Plug {
  node: NodeData;
  /** Long attribute name. */
  attribute: string;
  data: AttributeData;
}

/** A value read from an attribute: a scalar, or the children's values of a compound. */
export type AttributeValue = ScalarValue | number[];

/** Finds an attribute by long or short name. */
export function findAttribute(node: NodeData, name: string): [string, AttributeData] | undefined {
  const direct = Object.hasOwn(node.attributes, name) ? node.attributes[name] : undefined;
  if (direct) return [name, direct];
  for (const [long, data] of Object.entries(node.attributes)) {
    if (data.shortName === name) return [long, data];
  }
  return undefined;
}

/** Resolves `node.attr` (`pSphere1.tx`, `|group1|pSphere1.translateX`). */
export function parsePlug(graph: SceneGraph, text: unknown): Plug {
  if (typeof text !== "string") {
    throw invalidArgument(
      `Expected an attribute name like 'pSphere1.translateX', got ${JSON.stringify(text)}`,
    );
  }
  const dot = text.indexOf(".");
  if (dot <= 0) throw invalidArgument(`Expected 'node.attribute', got '${text}'`);
  const node = graph.find(text.slice(0, dot));
  const found = node ? findAttribute(node, text.slice(dot + 1)) : undefined;
  if (!node || !found) throw noObject(text);
  return { node, attribute: found[0], data: found[1] };
}

/** `node.attr` text for a plug. */
export function plugName(node: NodeData, attribute: string): string {
  return `${node.name}.${attribute}`;
}

/** The connection feeding an attribute, if any. */
export function incoming(
  graph: SceneGraph,
  node: NodeData,
  attribute: string,
): ConnectionData | undefined {
  return graph.state.connections.find(
    (c) => c.destinationNode === node.id && c.destinationAttribute === attribute,
  );
}

/**
 * Evaluates an attribute at `time`: an animation curve or another attribute feeding it wins
 * over the stored value, as in Maya's dependency graph. A connected compound feeds its
 * children. `multiplyDivide.output` and shader `outColor` are computed.
 */
export function evaluate(
  graph: SceneGraph,
  node: NodeData,
  attribute: string,
  time: number,
  depth = 0,
): AttributeValue {
  if (depth > 64)
    throw invalidState(`Cycle detected while evaluating ${plugName(node, attribute)}`);
  const data = node.attributes[attribute];
  if (!data) throw noObject(plugName(node, attribute));
  if (data.children) {
    const whole = incoming(graph, node, attribute);
    if (whole) return toNumbers(evaluateSource(graph, whole, time, depth));
    return data.children.map((child) => Number(evaluate(graph, node, child, time, depth + 1)));
  }
  const connection = incoming(graph, node, attribute);
  if (connection) return evaluateSource(graph, connection, time, depth);
  if (data.parent) {
    const parentConnection = incoming(graph, node, data.parent);
    if (parentConnection) {
      const index = node.attributes[data.parent]?.children?.indexOf(attribute) ?? 0;
      return toNumbers(evaluateSource(graph, parentConnection, time, depth))[index] ?? 0;
    }
    const computed = compute(graph, node, data.parent, time, depth);
    if (computed)
      return computed[node.attributes[data.parent]?.children?.indexOf(attribute) ?? 0] ?? 0;
  }
  return data.value;
}

function evaluateSource(
  graph: SceneGraph,
  connection: ConnectionData,
  time: number,
  depth: number,
): AttributeValue {
  const source = graph.node(connection.sourceNode);
  if (isTypeOf(source.type, "animCurve")) return evaluateCurve(source.keys ?? [], time);
  return evaluate(graph, source, connection.sourceAttribute, time, depth + 1);
}

function compute(
  graph: SceneGraph,
  node: NodeData,
  compound: string,
  time: number,
  depth: number,
): number[] | undefined {
  const read = (name: string): number[] => toNumbers(evaluate(graph, node, name, time, depth + 1));
  if (node.type === "multiplyDivide" && compound === "output") {
    const operation = Number(evaluate(graph, node, "operation", time, depth + 1));
    const a = read("input1");
    const b = read("input2");
    return a.map((value, index) => {
      const other = b[index] ?? 0;
      if (operation === 1) return value * other;
      if (operation === 2) return other === 0 ? 0 : value / other;
      if (operation === 3) return value ** other;
      return value;
    });
  }
  if (compound === "outColor" && isTypeOf(node.type, "lambert")) return read("color");
  if (compound === "outColor" && node.attributes["baseColor"]) return read("baseColor");
  return undefined;
}

function toNumbers(value: AttributeValue): number[] {
  return Array.isArray(value) ? value : [Number(value)];
}

/** Throws Maya's error when an attribute is locked or driven by something other than a curve. */
export function assertSettable(graph: SceneGraph, plug: Plug): void {
  const connection =
    incoming(graph, plug.node, plug.attribute) ??
    (plug.data.parent ? incoming(graph, plug.node, plug.data.parent) : undefined);
  const drivenByCurve = connection && isTypeOf(graph.node(connection.sourceNode).type, "animCurve");
  if (plug.data.locked || (connection && !drivenByCurve)) {
    throw invalidState(
      `setAttr: The attribute '${plugName(plug.node, plug.attribute)}' is locked or connected and cannot be modified.`,
    );
  }
}

/** Converts and range-checks one scalar for an attribute (enum names, booleans, min/max clamp). */
export function coerceScalar(plug: Plug, value: unknown): ScalarValue {
  const { data } = plug;
  const where = plugName(plug.node, plug.attribute);
  switch (data.type) {
    case "string":
      if (typeof value !== "string")
        throw invalidArgument(`${where} expects a string, got ${JSON.stringify(value)}`);
      return value;
    case "bool":
      if (typeof value === "boolean") return value;
      if (typeof value === "number") return value !== 0;
      throw invalidArgument(`${where} expects a boolean, got ${JSON.stringify(value)}`);
    case "enum": {
      if (typeof value === "string") {
        const index = data.enumNames?.indexOf(value) ?? -1;
        if (index < 0)
          throw invalidArgument(
            `${where} has no enum value '${value}' (${(data.enumNames ?? []).join(", ")})`,
          );
        return index;
      }
      if (typeof value !== "number" || !Number.isInteger(value))
        throw invalidArgument(`${where} expects an enum index or name`);
      return value;
    }
    case "message":
      throw invalidArgument(`${where} is a message attribute; connect it with connectAttr instead`);
    default: {
      const number = typeof value === "boolean" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) {
        throw invalidArgument(`${where} expects a number, got ${JSON.stringify(value)}`);
      }
      let result = data.type === "long" || data.type === "short" ? Math.trunc(number) : number;
      if (data.min !== undefined) result = Math.max(data.min, result);
      if (data.max !== undefined) result = Math.min(data.max, result);
      return result;
    }
  }
}

/** Stores values on a plug (one value, or one per child of a compound). */
export function writePlug(graph: SceneGraph, plug: Plug, values: readonly unknown[]): void {
  assertSettable(graph, plug);
  graph.touch(plug.node);
  if (plug.data.children) {
    const flat =
      values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
    if (flat.length !== plug.data.children.length) {
      throw invalidArgument(
        `${plugName(plug.node, plug.attribute)} expects ${plug.data.children.length} values, got ${flat.length}`,
      );
    }
    const children = plug.data.children.map((child) => ({
      node: plug.node,
      attribute: child,
      data: plug.node.attributes[child] as AttributeData,
    }));
    // A locked or driven child blocks the whole compound, as in Maya.
    for (const child of children) assertSettable(graph, child);
    children.forEach((child, index) => {
      child.data.value = coerceScalar(child, flat[index]);
    });
    return;
  }
  if (values.length !== 1) {
    throw invalidArgument(
      `${plugName(plug.node, plug.attribute)} expects one value, got ${values.length}`,
    );
  }
  plug.data.value = coerceScalar(plug, values[0]);
}
