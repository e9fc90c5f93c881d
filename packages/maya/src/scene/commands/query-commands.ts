import { findAttribute } from "../attributes.ts";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames, wildcard } from "../naming.ts";
import { creatableNodeTypes, isTypeOf, nodeTypeInfo } from "../node-types.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";

function typeFilter(types: unknown): ((node: NodeData) => boolean) | undefined {
  if (types === undefined) return undefined;
  const list = types as string[];
  return (node) => list.some((type) => isTypeOf(node.type, type));
}

function nameOf(scene: MayaScene, node: NodeData, long: boolean): string {
  return long ? scene.graph.fullPath(node) : node.name;
}

const ls: SceneCommandSpec<MayaScene> = {
  name: "ls",
  summary:
    "List nodes, optionally matching names/patterns (*), by type, the selection (sl), DAG objects, transforms, shapes; long paths with long.",
  positional: "...namesOrPatterns: string[]",
  returns: "string[]",
  flags:
    "type|typ:strings exactType|et:strings excludeType|ext:strings selection|sl orderedSelection|os long|l dagObjects|dag transforms|tr shapes|s geometry|g cameras|ca lights|lt materials|mat assemblies|as showType|st visible|v head|hd:int tail|tl:int nodeTypes|nt objectsOnly|o flatten|fl allPaths|ap",
  mutates: false,
  run(scene, call) {
    const { flags } = call;
    if (flags["nodeTypes"]) return creatableNodeTypes();
    const graph = scene.graph;
    const selection = flags["selection"] || flags["orderedSelection"];
    let nodes = selection ? graph.state.selection.map((id) => graph.node(id)) : graph.nodes();
    const patterns = flattenNames(call.args);
    if (patterns.length > 0) {
      const matchers = patterns.map((pattern) => {
        const match = wildcard(pattern);
        return (node: NodeData): boolean =>
          pattern.includes("|")
            ? match(graph.fullPath(node)) || graph.find(pattern) === node
            : match(node.name);
      });
      nodes = nodes.filter((node) => matchers.some((matches) => matches(node)));
    }
    const filters: Array<(node: NodeData) => boolean> = [];
    const byType = typeFilter(flags["type"]);
    if (byType) filters.push(byType);
    if (flags["exactType"])
      filters.push((node) => (flags["exactType"] as string[]).includes(node.type));
    if (flags["excludeType"])
      filters.push(
        (node) => !(flags["excludeType"] as string[]).some((t) => isTypeOf(node.type, t)),
      );
    if (flags["dagObjects"]) filters.push((node) => graph.isDag(node));
    if (flags["transforms"]) filters.push((node) => isTypeOf(node.type, "transform"));
    if (flags["shapes"]) filters.push((node) => graph.isShape(node));
    if (flags["geometry"]) filters.push((node) => node.type === "mesh");
    if (flags["cameras"]) filters.push((node) => node.type === "camera");
    if (flags["lights"]) filters.push((node) => isTypeOf(node.type, "light"));
    if (flags["materials"]) {
      filters.push((node) =>
        ["lambert", "surfaceShader", "standardSurface", "aiStandardSurface"].some((t) =>
          isTypeOf(node.type, t),
        ),
      );
    }
    if (flags["assemblies"]) filters.push((node) => graph.isDag(node) && node.parent === null);
    if (flags["visible"]) filters.push((node) => graph.isDag(node) && isVisible(scene, node));
    let result: NodeData[] = [];
    for (const node of nodes) {
      scene.checkpoint();
      if (filters.every((filter) => filter(node))) result.push(node);
    }
    if (typeof flags["head"] === "number") result = result.slice(0, flags["head"]);
    if (typeof flags["tail"] === "number") result = result.slice(-flags["tail"]);
    const long = flags["long"] === true;
    if (flags["showType"]) return result.flatMap((node) => [nameOf(scene, node, long), node.type]);
    return result.map((node) => nameOf(scene, node, long));
  },
};

function isVisible(scene: MayaScene, node: NodeData): boolean {
  for (let current: NodeData | undefined = node; current; ) {
    if (current.attributes["visibility"]?.value === false) return false;
    current = current.parent === null ? undefined : scene.graph.node(current.parent);
  }
  return true;
}

const listRelatives: SceneCommandSpec<MayaScene> = {
  name: "listRelatives",
  summary:
    "List children (default), parent, shapes, allDescendents or allParents of DAG objects; null when there are none (as maya.cmds).",
  positional: "...objects: string[]",
  returns: "string[] | null",
  flags:
    "children|c parent|p allParents|ap shapes|s allDescendents|ad fullPath|f path|pa type|typ:strings noIntermediate|ni",
  mutates: false,
  run(scene, call) {
    const graph = scene.graph;
    const { flags } = call;
    const found: NodeData[] = [];
    for (const node of scene.targets(call, { allowEmpty: true })) {
      if (flags["parent"]) {
        if (node.parent !== null) found.push(graph.node(node.parent));
      } else if (flags["allParents"]) {
        for (let parent = node.parent; parent !== null; parent = graph.node(parent).parent) {
          found.push(graph.node(parent));
        }
      } else if (flags["allDescendents"]) {
        // Maya lists descendants deepest first.
        found.push(...graph.descendants(node).reverse());
      } else {
        const children = graph.children(node);
        found.push(
          ...(flags["shapes"] ? children.filter((child) => graph.isShape(child)) : children),
        );
      }
    }
    let result = [...new Set(found)];
    if (flags["shapes"] && flags["allDescendents"])
      result = result.filter((node) => graph.isShape(node));
    const byType = typeFilter(flags["type"]);
    if (byType) result = result.filter(byType);
    if (result.length === 0) return null;
    return result.map((node) => nameOf(scene, node, flags["fullPath"] === true));
  },
};

const objExists: SceneCommandSpec<MayaScene> = {
  name: "objExists",
  summary: "True when a node or attribute (node.attr) with that name exists.",
  positional: "name: string",
  returns: "boolean",
  flags: "",
  mutates: false,
  run(scene, call) {
    const name = call.args[0];
    if (typeof name !== "string") throw invalidArgument("objExists: expects one name in args.");
    const dot = name.indexOf(".");
    if (dot < 0) return scene.graph.find(name) !== undefined;
    const node = scene.graph.find(name.slice(0, dot));
    return node !== undefined && findAttribute(node, name.slice(dot + 1)) !== undefined;
  },
};

const nodeType: SceneCommandSpec<MayaScene> = {
  name: "nodeType",
  summary: "Type of a node (e.g. 'transform', 'mesh'); inherited lists the type chain.",
  positional: "node: string",
  returns: "string | string[]",
  flags: "inherited|i isTypeName|itn derived|d apiType|api",
  mutates: false,
  run(scene, call) {
    const type = call.flags["isTypeName"] ? String(call.args[0]) : scene.resolve(call.args[0]).type;
    const info = nodeTypeInfo(type);
    if (!info) throw invalidArgument(`Unknown object type: ${type}`);
    if (call.flags["inherited"]) return info.inherited;
    if (call.flags["apiType"]) return `k${type[0]?.toUpperCase()}${type.slice(1)}`;
    return type;
  },
};

/** ls, listRelatives, objExists, nodeType. */
export const queryCommands: SceneCommandSpec<MayaScene>[] = [
  ls,
  listRelatives,
  objExists,
  nodeType,
];
