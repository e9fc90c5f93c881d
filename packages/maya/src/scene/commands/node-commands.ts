// Creating, renaming and deleting nodes: createNode, rename, delete.
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { assertValidName, shapeNameFor, uniqueName } from "../naming.ts";
import { creatableNodeTypes, isTypeOf, nodeTypeInfo } from "../node-types.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { isTransform } from "../transforms.ts";
import { desiredName } from "./command-helpers.ts";

/** Nodes every scene has; Maya refuses to delete or rename them. */
const defaultNodes = new Set(["lambert1", "initialShadingGroup"]);

function assertNotDefault(node: NodeData, action: string): void {
  if (defaultNodes.has(node.name))
    throw invalidState(`Cannot ${action} locked node '${node.name}'.`);
}

/** `delete`: remove objects with their descendants, history and curves. */
export const deleteCommand: SceneCommandSpec<MayaScene> = {
  name: "delete",
  summary:
    "Delete objects (or the selection) with their descendants, history and animation curves; constructionHistory (ch) deletes only history; channels (c) only keys.",
  positional: "...objects: string[]",
  returns: "null",
  flags: "constructionHistory|ch channels|c hierarchy|hi",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const targets = scene.targets(call);
    const upstream = (roots: Iterable<number>, types: string[]): Set<number> => {
      const result = new Set<number>();
      for (const connection of graph.state.connections) {
        if (!new Set(roots).has(connection.destinationNode)) continue;
        const source = graph.node(connection.sourceNode);
        if (types.some((type) => isTypeOf(source.type, type) || source.type === type))
          result.add(source.id);
      }
      return result;
    };
    const withShapes = (nodes: NodeData[]): number[] =>
      nodes.flatMap((node) => [node.id, ...graph.descendants(node).map((child) => child.id)]);
    if (call.flags["constructionHistory"] || call.flags["channels"]) {
      const types = call.flags["channels"]
        ? ["animCurve"]
        : ["polySphere", "polyCube", "polyCylinder", "polyPlane", "polyCone", "polyTorus"];
      graph.remove(upstream(withShapes(targets), types));
      return null;
    }
    for (const node of targets) assertNotDefault(node, "delete");
    const doomed = new Set(withShapes(targets));
    // Maya deletes the history and curves that only fed the deleted nodes.
    for (const id of upstream(doomed, [
      "animCurve",
      "polySphere",
      "polyCube",
      "polyCylinder",
      "polyPlane",
      "polyCone",
      "polyTorus",
    ])) {
      scene.checkpoint();
      const outputs = graph.state.connections.filter((c) => c.sourceNode === id);
      if (outputs.every((c) => doomed.has(c.destinationNode))) doomed.add(id);
    }
    graph.remove(doomed);
    return null;
  },
};

/** `rename`: give a node a new, unique name. */
export const rename: SceneCommandSpec<MayaScene> = {
  name: "rename",
  summary:
    "Rename a node (or the first selected one); returns the new, unique name. Default shape names follow the transform.",
  positional: "object?: string, newName: string",
  returns: "string",
  flags: "ignoreShape|is uuid|uid",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const [first, second] = call.args;
    const node =
      second === undefined ? scene.targets({ ...call, args: [] })[0] : scene.resolve(first);
    const wanted = second === undefined ? first : second;
    if (!node || typeof wanted !== "string")
      throw invalidArgument("rename: expects args [object, newName].");
    assertValidName(wanted);
    assertNotDefault(node, "rename");
    const oldName = node.name;
    // The node's own name does not count as taken: renaming pSphere1 to pSphere1 keeps it.
    graph.setName(
      node,
      uniqueName(wanted, (name) => name !== oldName && graph.nameTaken(name)),
    );
    if (!call.flags["ignoreShape"] && isTransform(node)) {
      for (const shape of graph.shapes(node)) {
        if (shape.name !== shapeNameFor(oldName)) continue;
        const own = shape.name;
        graph.setName(
          shape,
          uniqueName(shapeNameFor(node.name), (name) => name !== own && graph.nameTaken(name)),
        );
      }
    }
    return node.name;
  },
};

/** `createNode`: a node of any creatable simulated type. */
export const createNode: SceneCommandSpec<MayaScene> = {
  name: "createNode",
  summary:
    "Create a node of a simulated type (transform, locator, multiplyDivide, lambert, …) with an optional name and parent (p).",
  positional: "type: string",
  returns: "string",
  flags: "name|n:string parent|p:string skipSelect|ss shared|s",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const type = call.args[0];
    if (typeof type !== "string")
      throw invalidArgument("createNode: expects the node type in args.");
    const info = nodeTypeInfo(type);
    if (!info || !creatableNodeTypes().includes(type)) {
      throw invalidArgument(
        `createNode: Unknown object type: ${type}. Simulated types: ${creatableNodeTypes().join(", ")}.`,
      );
    }
    if (
      call.flags["shared"] &&
      typeof call.flags["name"] === "string" &&
      graph.find(call.flags["name"])
    ) {
      return call.flags["name"];
    }
    let parentId: number | null =
      typeof call.flags["parent"] === "string" ? scene.resolve(call.flags["parent"]).id : null;
    if (info.shape && parentId === null)
      parentId = graph.createNode("transform", { name: "transform#" }).id;
    const node = graph.createNode(type, {
      name: desiredName(call, `${type}#`),
      parent: info.dag ? parentId : null,
    });
    if (isTypeOf(type, "objectSet")) node.members = [];
    if (info.dag && !call.flags["skipSelect"]) scene.select([node]);
    return node.name;
  },
};
