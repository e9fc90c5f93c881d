// duplicate: copies of objects with their hierarchy, shading membership and, on request, inputs.
import { cloneAttributes } from "../clone-state.ts";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { shapeNameFor } from "../naming.ts";
import type { NodeData } from "../scene-state.ts";
import { desiredName } from "./command-helpers.ts";

function copyTree(
  scene: MayaScene,
  node: NodeData,
  parent: number | null,
  name: string,
  copies: NodeData[],
): NodeData {
  const graph = scene.graph;
  const copy = graph.createNode(node.type, { name, parent });
  copy.attributes = cloneAttributes(node.attributes);
  if (node.members) copy.members = [...node.members];
  copies.push(copy);
  for (const group of graph.nodes()) {
    if (group.type === "shadingEngine" && group.members?.includes(node.id)) {
      graph.touch(group).members?.push(copy.id);
    }
  }
  for (const child of graph.children(node)) {
    scene.checkpoint();
    const childName =
      graph.isShape(child) && child.name === shapeNameFor(node.name)
        ? shapeNameFor(copy.name)
        : child.name;
    copyTree(scene, child, copy.id, childName, copies);
  }
  return copy;
}

/** `duplicate`: copy objects (or the selection) with their hierarchy. */
export const duplicate: SceneCommandSpec<MayaScene> = {
  name: "duplicate",
  summary:
    "Duplicate objects (or the selection) with their hierarchy; returns the new names (roots first). inputConnections (ic) copies incoming connections.",
  positional: "...objects: string[]",
  returns: "string[]",
  flags: "name|n:string returnRootsOnly|rr inputConnections|ic upstreamNodes|un renameChildren|rc",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const result: string[] = [];
    const roots: NodeData[] = [];
    const pairs: Array<[NodeData, NodeData]> = [];
    for (const [index, node] of scene.targets(call).entries()) {
      const copies: NodeData[] = [];
      const name = index === 0 ? desiredName(call, node.name) : node.name;
      const copy = copyTree(scene, node, node.parent, name, copies);
      const originals = [node, ...graph.descendants(node)];
      originals.forEach((original, position) => {
        pairs.push([original, copies[position] as NodeData]);
      });
      roots.push(copy);
      result.push(copy.name);
      if (!call.flags["returnRootsOnly"]) {
        result.push(
          ...copies
            .slice(1)
            .filter((item) => !graph.isShape(item))
            .map((item) => item.name),
        );
      }
    }
    if (call.flags["inputConnections"] || call.flags["upstreamNodes"]) {
      for (const [original, copy] of pairs) {
        for (const connection of graph.state.connections.filter(
          (c) => c.destinationNode === original.id,
        )) {
          graph.state.connections.push({ ...connection, destinationNode: copy.id });
        }
      }
    }
    scene.select(roots);
    return result;
  },
};
