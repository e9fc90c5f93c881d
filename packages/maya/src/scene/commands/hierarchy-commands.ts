// The DAG hierarchy: group and parent, keeping world transforms; and the list of every
// scene-structure command in their catalog order.
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames } from "../naming.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { isTransform, setWorldMatrix, worldMatrix } from "../transforms.ts";
import { desiredName } from "./command-helpers.ts";
import { duplicate } from "./duplicate-command.ts";
import { createNode, deleteCommand, rename } from "./node-commands.ts";
import { hide, select, showHidden } from "./selection-commands.ts";

/** Moves `node` under `parent`, keeping its world transform unless `relative`. */
function reparentNode(
  scene: MayaScene,
  node: NodeData,
  parent: NodeData | null,
  relative: boolean,
): void {
  const graph = scene.graph;
  if (parent) {
    for (let current: NodeData | null = parent; current; ) {
      if (current.id === node.id) {
        throw invalidArgument(
          `Cannot parent '${node.name}' to itself or to its own descendant '${parent.name}'.`,
        );
      }
      current = current.parent === null ? null : graph.node(current.parent);
    }
    if (!isTransform(parent))
      throw invalidArgument(
        `Cannot parent '${node.name}' under '${parent.name}': it is not a transform.`,
      );
  }
  const world = isTransform(node) ? worldMatrix(graph, node) : undefined;
  graph.reparent(node, parent?.id ?? null);
  if (world && !relative) setWorldMatrix(graph, node, world);
}

const group: SceneCommandSpec<MayaScene> = {
  name: "group",
  summary:
    "Group objects (or the selection) under a new transform, keeping their world positions; empty (em) makes an empty group; parent (p) or world (w) places it.",
  positional: "...objects: string[]",
  returns: "string",
  flags: "empty|em name|n:string world|w parent|p:string relative|r absolute|a",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const members = call.flags["empty"] ? [] : scene.targets(call, { allowEmpty: true });
    for (const member of members) {
      if (!isTransform(member))
        throw invalidArgument(`group: '${member.name}' is not a transform and cannot be grouped.`);
    }
    let parent: NodeData | null = null;
    if (typeof call.flags["parent"] === "string") parent = scene.resolve(call.flags["parent"]);
    else if (!call.flags["world"] && members[0]?.parent != null)
      parent = graph.node(members[0].parent);
    const node = graph.createNode("transform", {
      name: desiredName(call, "group#"),
      parent: parent?.id ?? null,
    });
    for (const member of members)
      reparentNode(scene, member, node, call.flags["relative"] === true);
    scene.select([node]);
    return node.name;
  },
};

const parent: SceneCommandSpec<MayaScene> = {
  name: "parent",
  summary:
    "Parent objects under the last named object (or to the world with w), keeping world positions unless relative (r); returns the objects' names.",
  positional: "...objects: string[], newParent: string",
  returns: "string[]",
  flags: "world|w relative|r absolute|a shape|s noConnections|nc noInvScale|nis",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const names = flattenNames(call.args);
    let nodes =
      names.length > 0
        ? names.map((name) => graph.resolve(name))
        : graph.state.selection.map((id) => graph.node(id));
    let newParent: NodeData | null = null;
    if (!call.flags["world"]) {
      if (nodes.length < 2) throw invalidArgument("parent: Not enough objects or values.");
      newParent = nodes.at(-1) ?? null;
      nodes = nodes.slice(0, -1);
    }
    if (nodes.length === 0) throw invalidArgument("parent: Not enough objects or values.");
    for (const node of nodes) {
      if (!graph.isDag(node)) throw invalidArgument(`parent: '${node.name}' is not a DAG object.`);
      if (graph.isShape(node) && !call.flags["shape"]) {
        throw invalidArgument(
          `parent: '${node.name}' is a shape; pass shape: true to reparent shapes.`,
        );
      }
      if ((newParent?.id ?? null) === node.parent) {
        throw invalidState(
          `Object '${node.name}' is already a child of ${newParent ? `'${newParent.name}'` : "the world"}.`,
        );
      }
      reparentNode(scene, node, newParent, call.flags["relative"] === true);
    }
    return nodes.map((node) => node.name);
  },
};

/** select, delete, rename, duplicate, group, parent, createNode, hide, showHidden. */
export const hierarchyCommands: SceneCommandSpec<MayaScene>[] = [
  select,
  deleteCommand,
  rename,
  duplicate,
  group,
  parent,
  createNode,
  hide,
  showHidden,
];
