import { findAttribute } from "../attributes.ts";
import type { SceneCall, SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import {
  assertNoCreateArgs,
  assignShadingGroup,
  desiredName,
  formatValue,
  setIf,
} from "./command-helpers.ts";

interface PrimitiveOptions {
  command: string;
  /** Transform base name: `pSphere` gives pSphere1, pSphereShape1. */
  transformBase: string;
  /** Command flags beyond the common ones. */
  flags: string;
  /** Command flags that are aliases of history-node attributes (`subdivisionsX` → `subdivisionsAxis`). */
  aliases: Record<string, string>;
  summary: string;
}

const commonFlags =
  "name|n:string constructionHistory|ch:bool object|o:bool createUVs|cuv:int texture|tx:int axis|ax:vector3 position:vector3";
const ignored = new Set([
  "name",
  "constructionHistory",
  "object",
  "createUVs",
  "texture",
  "position",
  "query",
  "edit",
]);

/** Finds the history node of a primitive from the history node itself, its shape or transform. */
function historyOf(scene: MayaScene, node: NodeData, command: string): NodeData {
  if (node.type === command) return node;
  for (const shape of scene.graph.shapes(node)) {
    const input = scene.graph.state.connections.find(
      (c) => c.destinationNode === shape.id && c.destinationAttribute === "inMesh",
    );
    if (input && scene.graph.node(input.sourceNode).type === command)
      return scene.graph.node(input.sourceNode);
  }
  throw invalidArgument(`${command}: '${node.name}' has no ${command} history node.`);
}

function applyFlags(
  scene: MayaScene,
  history: NodeData,
  call: SceneCall,
  aliases: Record<string, string>,
): void {
  for (const [flag, value] of Object.entries(call.flags)) {
    const attribute = aliases[flag] ?? flag;
    // roundCap and friends shape the mesh only; the simulation keeps no geometry.
    if (!ignored.has(flag) && attribute !== "") setIf(scene, history, attribute, value);
  }
}

function primitive(options: PrimitiveOptions): SceneCommandSpec<MayaScene> {
  return {
    name: options.command,
    summary: options.summary,
    positional: "historyNode?: string",
    returns: "string[]",
    flags: `${commonFlags} ${options.flags}`,
    queryable: true,
    editable: true,
    mutates: true,
    run(scene, call) {
      if (call.query || call.edit) {
        const history = historyOf(scene, scene.resolve(call.args[0]), options.command);
        if (call.edit) {
          applyFlags(scene, history, call, options.aliases);
          return null;
        }
        const flag = Object.keys(call.flags).find((name) => !ignored.has(name));
        if (!flag)
          throw invalidArgument(
            `${options.command}: say which flag to query, e.g. { query: true, radius: true }.`,
          );
        const attribute = options.aliases[flag] ?? flag;
        if (attribute === "" || !findAttribute(history, attribute))
          throw invalidArgument(`${options.command}: '${flag}' cannot be queried.`);
        const value = formatValue(scene, history, attribute, scene.graph.state.currentTime);
        return Array.isArray(value) ? value[0] : value;
      }
      assertNoCreateArgs(call);
      const graph = scene.graph;
      const { transform, shape } = graph.createTransformWithShape(
        "mesh",
        desiredName(call, `${options.transformBase}#`),
      );
      const result = [transform.name];
      if (call.flags["constructionHistory"] !== false) {
        const history = graph.createNode(options.command, { name: `${options.command}#` });
        applyFlags(scene, history, call, options.aliases);
        graph.state.connections.push({
          sourceNode: history.id,
          sourceAttribute: "output",
          destinationNode: shape.id,
          destinationAttribute: "inMesh",
        });
        result.push(history.name);
      }
      setIf(scene, transform, "translate", call.flags["position"]);
      assignShadingGroup(scene, shape);
      scene.select([transform]);
      return result;
    },
  };
}

/** polySphere, polyCube, polyCylinder, polyPlane, polyCone, polyTorus. */
export const primitiveCommands: SceneCommandSpec<MayaScene>[] = [
  primitive({
    command: "polySphere",
    transformBase: "pSphere",
    summary: "Create a polygon sphere; returns [transform, polySphere history node].",
    flags:
      "radius|r:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsAxis|sa:int subdivisionsHeight|sh:int",
    aliases: { subdivisionsX: "subdivisionsAxis", subdivisionsY: "subdivisionsHeight" },
  }),
  primitive({
    command: "polyCube",
    transformBase: "pCube",
    summary: "Create a polygon cube; returns [transform, polyCube history node].",
    flags:
      "width|w:number height|h:number depth|d:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsZ|sz:int subdivisionsWidth|sw:int subdivisionsHeight|sh:int subdivisionsDepth|sd:int",
    aliases: {
      subdivisionsX: "subdivisionsWidth",
      subdivisionsY: "subdivisionsHeight",
      subdivisionsZ: "subdivisionsDepth",
    },
  }),
  primitive({
    command: "polyCylinder",
    transformBase: "pCylinder",
    summary: "Create a polygon cylinder; returns [transform, polyCylinder history node].",
    flags:
      "radius|r:number height|h:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsZ|sz:int subdivisionsAxis|sa:int subdivisionsHeight|sh:int subdivisionsCaps|sc:int roundCap|rcp:bool",
    aliases: {
      subdivisionsX: "subdivisionsAxis",
      subdivisionsY: "subdivisionsHeight",
      subdivisionsZ: "subdivisionsCaps",
      roundCap: "",
    },
  }),
  primitive({
    command: "polyPlane",
    transformBase: "pPlane",
    summary: "Create a polygon plane; returns [transform, polyPlane history node].",
    flags:
      "width|w:number height|h:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsWidth|sw:int subdivisionsHeight|sh:int",
    aliases: { subdivisionsX: "subdivisionsWidth", subdivisionsY: "subdivisionsHeight" },
  }),
  primitive({
    command: "polyCone",
    transformBase: "pCone",
    summary: "Create a polygon cone; returns [transform, polyCone history node].",
    flags:
      "radius|r:number height|h:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsZ|sz:int subdivisionsAxis|sa:int subdivisionsHeight|sh:int subdivisionsCap|sc:int roundCap|rcp:bool",
    aliases: {
      subdivisionsX: "subdivisionsAxis",
      subdivisionsY: "subdivisionsHeight",
      subdivisionsZ: "subdivisionsCap",
      roundCap: "",
    },
  }),
  primitive({
    command: "polyTorus",
    transformBase: "pTorus",
    summary: "Create a polygon torus; returns [transform, polyTorus history node].",
    flags:
      "radius|r:number sectionRadius|sr:number twist|tw:number subdivisionsX|sx:int subdivisionsY|sy:int subdivisionsAxis|sa:int subdivisionsHeight|sh:int",
    aliases: { subdivisionsX: "subdivisionsAxis", subdivisionsY: "subdivisionsHeight" },
  }),
];
