import { evaluate, findAttribute, parsePlug, writePlug } from "../attributes.ts";
import type { SceneCall } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { assertValidName } from "../naming.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";

/**
 * Create mode of a command whose positional argument is only for query/edit (primitives,
 * cameras, lights): positional values there are a mistake, usually a flag given positionally.
 */
export function assertNoCreateArgs(call: SceneCall): void {
  if (call.args.length > 0) {
    throw invalidArgument(
      `${call.command} takes no positional arguments when creating (got ${JSON.stringify(call.args)}); pass flags as keys of one object, e.g. { name: "ball" }.`,
    );
  }
}

/** A desired name from the `name` flag, checked, or the default pattern. */
export function desiredName(call: SceneCall, fallback: string): string {
  const name = call.flags["name"];
  if (typeof name !== "string") return fallback;
  assertValidName(name);
  return name;
}

/** Writes one attribute by long or short name, skipping undefined values. */
export function setIf(scene: MayaScene, node: NodeData, attribute: string, value: unknown): void {
  if (value === undefined) return;
  const found = findAttribute(node, attribute);
  if (!found) throw invalidArgument(`${node.name} has no attribute '${attribute}'`);
  writePlug(scene.graph, { node, attribute: found[0], data: found[1] }, [value]);
}

/** Puts a mesh shape into a shading group (the default one unless named), as Maya does. */
export function assignShadingGroup(
  scene: MayaScene,
  shape: NodeData,
  groupName = "initialShadingGroup",
): void {
  const group = scene.graph.find(groupName);
  if (!group) return;
  for (const node of scene.graph.nodes()) {
    if (node.type === "shadingEngine" && node.members?.includes(shape.id)) {
      scene.graph.touch(node).members = node.members.filter((id) => id !== shape.id);
    }
  }
  scene.graph.touch(group).members = [...(group.members ?? []), shape.id];
}

/** The single object a query or edit refers to: the first positional name or the selection. */
export function subject(scene: MayaScene, call: SceneCall): NodeData {
  const [node] = scene.targets(call);
  if (!node) throw invalidArgument(`${call.command}: No object was specified.`);
  return node;
}

/** The first shape of a transform, or the node itself. */
export function shapeOf(scene: MayaScene, node: NodeData): NodeData {
  return scene.graph.shapes(node)[0] ?? node;
}

/** Reads a plug for getAttr-style output: compounds as `[[x, y, z]]`, like maya.cmds. */
export function plugValue(scene: MayaScene, text: string, time?: number): unknown {
  const plug = parsePlug(scene.graph, text);
  return formatValue(scene, plug.node, plug.attribute, time ?? scene.graph.state.currentTime);
}

/** Formats an evaluated attribute the way maya.cmds returns it. */
export function formatValue(
  scene: MayaScene,
  node: NodeData,
  attribute: string,
  time: number,
): unknown {
  const value = evaluate(scene.graph, node, attribute, time);
  return Array.isArray(value) ? [value] : value;
}

/** A number flag or positional value, checked. */
export function numberArg(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw invalidArgument(`${what} expects a number, got ${JSON.stringify(value)}`);
  }
  return value;
}
