import { cloneAttributes } from "../clone-state.ts";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { assertValidName, flattenNames, shapeNameFor, uniqueName } from "../naming.ts";
import { creatableNodeTypes, isTypeOf, nodeTypeInfo } from "../node-types.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { isTransform, setWorldMatrix, worldMatrix } from "../transforms.ts";
import { desiredName } from "./command-helpers.ts";

/** Nodes every scene has; Maya refuses to delete or rename them. */
const defaultNodes = new Set(["lambert1", "initialShadingGroup"]);

function assertNotDefault(node: NodeData, action: string): void {
  if (defaultNodes.has(node.name))
    throw invalidState(`Cannot ${action} locked node '${node.name}'.`);
}

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

const select: SceneCommandSpec<MayaScene> = {
  name: "select",
  summary:
    "Select objects: replace (default), add, deselect (d), toggle (tgl), clear (cl), hierarchy (hi), all DAG objects (ado).",
  positional: "...objects: string[]",
  returns: "null",
  flags:
    "add addFirst|af deselect|d toggle|tgl clear|cl replace|r all allDagObjects|ado hierarchy|hi noExpand|ne",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const { flags } = call;
    if (flags["clear"]) {
      scene.select([]);
      return null;
    }
    let nodes = flattenNames(call.args).map((name) => graph.resolve(name));
    if (flags["all"] || flags["allDagObjects"])
      nodes = graph.nodes().filter((node) => graph.isDag(node) && node.parent === null);
    if (flags["hierarchy"]) nodes = nodes.flatMap((node) => [node, ...graph.descendants(node)]);
    const current = graph.state.selection.map((id) => graph.node(id));
    if (flags["deselect"]) {
      scene.select(current.filter((node) => !nodes.includes(node)));
    } else if (flags["toggle"]) {
      scene.select([
        ...current.filter((node) => !nodes.includes(node)),
        ...nodes.filter((node) => !current.includes(node)),
      ]);
    } else if (flags["add"]) {
      scene.select([...current, ...nodes]);
    } else if (flags["addFirst"]) {
      scene.select([...nodes, ...current]);
    } else {
      scene.select(nodes);
    }
    return null;
  },
};

const deleteCommand: SceneCommandSpec<MayaScene> = {
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

const rename: SceneCommandSpec<MayaScene> = {
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

const duplicate: SceneCommandSpec<MayaScene> = {
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

const createNode: SceneCommandSpec<MayaScene> = {
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

function visibilityCommand(name: string, visible: boolean): SceneCommandSpec<MayaScene> {
  return {
    name,
    summary: visible
      ? "Make objects (or the selection) visible; allObjects (all) shows everything."
      : "Hide objects (or the selection); allObjects (all) hides every top-level object.",
    positional: "...objects: string[]",
    returns: "null",
    flags: "allObjects|all",
    mutates: true,
    run(scene, call) {
      const graph = scene.graph;
      const nodes = call.flags["allObjects"]
        ? graph.nodes().filter((node) => graph.isDag(node) && (visible || node.parent === null))
        : scene.targets(call);
      for (const node of nodes) {
        const attribute = node.attributes["visibility"];
        if (attribute && !attribute.locked) {
          graph.touch(node);
          attribute.value = visible;
        }
      }
      return null;
    },
  };
}

/** select, delete, rename, duplicate, group, parent, createNode, hide, showHidden. */
export const hierarchyCommands: SceneCommandSpec<MayaScene>[] = [
  select,
  deleteCommand,
  rename,
  duplicate,
  group,
  parent,
  createNode,
  visibilityCommand("hide", false),
  visibilityCommand("showHidden", true),
];
