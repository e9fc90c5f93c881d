import type { SceneCall, SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames } from "../naming.ts";
import { creatableNodeTypes, isTypeOf, nodeTypeInfo } from "../node-types.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { desiredName } from "./command-helpers.ts";
import { createLight } from "./light-helpers.ts";

const classifications = [
  "asShader",
  "asTexture",
  "asUtility",
  "asLight",
  "asPostProcess",
  "asRendering",
];

const shadingNode: SceneCommandSpec<MayaScene> = {
  name: "shadingNode",
  summary:
    "Create a shading node (lambert, blinn, phong, standardSurface, file, checker, ramp, place2dTexture, multiplyDivide, lights…) classified with asShader (as), asTexture (at), asUtility (au) or asLight (al).",
  positional: "type: string",
  returns: "string",
  flags:
    "asShader|as asTexture|at asUtility|au asLight|al asPostProcess|app asRendering|ar name|n:string shared|s skipSelect|ss",
  mutates: true,
  run(scene, call) {
    const type = call.args[0];
    if (typeof type !== "string")
      throw invalidArgument(
        'shadingNode: expects the node type in args, e.g. { args: ["lambert"], asShader: true }.',
      );
    if (!classifications.some((flag) => call.flags[flag] === true)) {
      throw invalidArgument(
        "shadingNode: You must specify a classification flag: asLight, asPostProcess, asRendering, asShader, asTexture or asUtility.",
      );
    }
    const info = nodeTypeInfo(type);
    if (!info || info.dag !== isTypeOf(type, "light") || !creatableNodeTypes().includes(type)) {
      throw invalidArgument(
        `shadingNode: Unknown object type: ${type}. Simulated types: ${creatableNodeTypes().join(", ")}.`,
      );
    }
    if (
      call.flags["shared"] === true &&
      typeof call.flags["name"] === "string" &&
      scene.graph.find(call.flags["name"])
    ) {
      return call.flags["name"];
    }
    if (isTypeOf(type, "light")) {
      const { transform } = createLight(scene, type, desiredName(call, `${type}#`));
      return transform.name;
    }
    const node = scene.graph.createNode(type, { name: desiredName(call, `${type}#`) });
    if (type === "shadingEngine") node.members = [];
    if (!call.flags["skipSelect"]) scene.select([node]);
    return node.name;
  },
};

/** Members as stored: shading groups hold shapes, so transforms turn into their shapes. */
function memberNodes(scene: MayaScene, set: NodeData, names: string[]): NodeData[] {
  const nodes = names.map((name) => scene.graph.resolve(name));
  if (set.type !== "shadingEngine") return nodes;
  return nodes.flatMap((node) => {
    const shapes = scene.graph.shapes(node);
    if (shapes.length === 0)
      throw invalidArgument(
        `sets: '${node.name}' has no shape to put in shading group '${set.name}'.`,
      );
    return shapes;
  });
}

function setNode(scene: MayaScene, name: unknown): NodeData {
  const node = scene.resolve(name);
  if (!isTypeOf(node.type, "objectSet"))
    throw invalidArgument(`sets: '${node.name}' is not a set.`);
  scene.graph.touch(node).members ??= [];
  return node;
}

/** Adds members; a shape is in one shading group at a time, so it leaves any other. */
export function addMembers(scene: MayaScene, set: NodeData, members: readonly NodeData[]): void {
  if (set.type === "shadingEngine") {
    const ids = new Set(members.map((node) => node.id));
    for (const other of scene.graph.nodes()) {
      if (
        other.type === "shadingEngine" &&
        other !== set &&
        other.members?.some((id) => ids.has(id))
      ) {
        scene.graph.touch(other).members = other.members.filter((id) => !ids.has(id));
      }
    }
  }
  scene.graph.touch(set).members = [
    ...new Set([...(set.members ?? []), ...members.map((node) => node.id)]),
  ];
}

function objectNames(scene: MayaScene, call: SceneCall): string[] {
  const names = flattenNames(call.args);
  return names.length > 0
    ? names
    : scene.graph.state.selection.map((id) => scene.graph.node(id).name);
}

const sets: SceneCommandSpec<MayaScene> = {
  name: "sets",
  summary:
    "Create a set of objects (renderable (r) + noSurfaceShader (nss) + empty (em) makes a shading group), assign with forceElement (fe), add (addElement/include), remove (rm), clear (cl), test isMember (im), or query (q) members.",
  positional: "...objects: string[]",
  returns: "string | string[] | boolean | null",
  flags:
    "name|n:string empty|em renderable|r noSurfaceShader|nss forceElement|fe:string addElement|add:string include|in:string remove|rm:string clear|cl:string isMember|im:string size|s text|t:string",
  queryable: true,
  editable: true,
  mutates: true,
  run(scene, call) {
    const { flags } = call;
    const graph = scene.graph;
    if (call.query) {
      const set = setNode(scene, call.args[0]);
      if (flags["size"]) return set.members?.length ?? 0;
      const names = (set.members ?? []).map((id) => graph.node(id).name);
      return names.length === 0 ? null : names;
    }
    const target = flags["forceElement"] ?? flags["addElement"] ?? flags["include"];
    if (target !== undefined) {
      const set = setNode(scene, target);
      addMembers(scene, set, memberNodes(scene, set, objectNames(scene, call)));
      return null;
    }
    if (flags["remove"] !== undefined) {
      const set = setNode(scene, flags["remove"]);
      const ids = new Set(memberNodes(scene, set, objectNames(scene, call)).map((node) => node.id));
      set.members = (set.members ?? []).filter((id) => !ids.has(id));
      return null;
    }
    if (flags["clear"] !== undefined) {
      setNode(scene, flags["clear"]).members = [];
      return null;
    }
    if (flags["isMember"] !== undefined) {
      const set = setNode(scene, flags["isMember"]);
      const nodes = memberNodes(scene, set, objectNames(scene, call));
      return nodes.length > 0 && nodes.every((node) => set.members?.includes(node.id));
    }
    const set = graph.createNode(flags["renderable"] ? "shadingEngine" : "objectSet", {
      name: desiredName(call, "set#"),
    });
    set.members = [];
    if (!flags["empty"]) addMembers(scene, set, memberNodes(scene, set, objectNames(scene, call)));
    return set.name;
  },
};

/** The shading group a material feeds, created (`<material>SG`) when there is none. */
export function shadingGroupFor(scene: MayaScene, material: NodeData): NodeData {
  const graph = scene.graph;
  const existing = graph.state.connections.find(
    (c) =>
      c.sourceNode === material.id &&
      c.destinationAttribute === "surfaceShader" &&
      graph.node(c.destinationNode).type === "shadingEngine",
  );
  if (existing) return graph.node(existing.destinationNode);
  const group = graph.createNode("shadingEngine", { name: `${material.name}SG` });
  group.members = [];
  graph.state.connections.push({
    sourceNode: material.id,
    sourceAttribute: "outColor",
    destinationNode: group.id,
    destinationAttribute: "surfaceShader",
  });
  return group;
}

const hyperShade: SceneCommandSpec<MayaScene> = {
  name: "hyperShade",
  summary:
    "assign (a): give the selected objects a material (its shading group is created if needed); objects (o): select the objects that use a material.",
  returns: "null",
  flags: "assign|a:string objects|o:string",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    if (typeof call.flags["assign"] === "string") {
      const material = scene.resolve(call.flags["assign"]);
      if (!material.attributes["outColor"])
        throw invalidArgument(`hyperShade: '${material.name}' is not a material.`);
      const group = shadingGroupFor(scene, material);
      const selected = graph.state.selection.map((id) => graph.node(id).name);
      addMembers(scene, group, memberNodes(scene, group, selected));
      return null;
    }
    if (typeof call.flags["objects"] === "string") {
      const material = scene.resolve(call.flags["objects"]);
      const group = shadingGroupFor(scene, material);
      scene.select((group.members ?? []).map((id) => graph.node(id)));
      return null;
    }
    throw invalidArgument("hyperShade: the simulation supports assign (a) and objects (o).");
  },
};

/** shadingNode, sets, hyperShade. */
export const shadingCommands: SceneCommandSpec<MayaScene>[] = [shadingNode, sets, hyperShade];
