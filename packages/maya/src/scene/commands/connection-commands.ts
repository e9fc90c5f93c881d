import { incoming, type Plug, parsePlug, plugName } from "../attributes.ts";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames } from "../naming.ts";
import { isTypeOf } from "../node-types.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";

function width(plug: Plug): number {
  return plug.data.children?.length ?? 1;
}

const connectAttr: SceneCommandSpec<MayaScene> = {
  name: "connectAttr",
  summary:
    "Connect a source attribute to a destination attribute (the destination then follows the source); force (f) replaces an existing input.",
  positional: "source: string, destination: string",
  returns: "string",
  flags: "force|f lock|l:bool nextAvailable|na",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const source = parsePlug(graph, call.args[0]);
    const destination = parsePlug(graph, call.args[1]);
    const sourceName = plugName(source.node, source.attribute);
    const destinationName = plugName(destination.node, destination.attribute);
    if (destination.data.type !== "message" && width(source) !== width(destination)) {
      throw invalidArgument(
        `connectAttr: The source '${sourceName}' and destination '${destinationName}' have incompatible types.`,
      );
    }
    if (destination.data.locked) {
      throw invalidState(
        `connectAttr: The attribute '${destinationName}' is locked and cannot be connected.`,
      );
    }
    const existing = incoming(graph, destination.node, destination.attribute);
    if (existing) {
      const from = plugName(graph.node(existing.sourceNode), existing.sourceAttribute);
      if (from === sourceName)
        throw invalidState(
          `connectAttr: '${sourceName}' is already connected to '${destinationName}'.`,
        );
      if (!call.flags["force"]) {
        throw invalidState(
          `connectAttr: '${destinationName}' already has an incoming connection from '${from}'. Use force: true to replace it.`,
        );
      }
      graph.state.connections = graph.state.connections.filter((c) => c !== existing);
    }
    graph.state.connections.push({
      sourceNode: source.node.id,
      sourceAttribute: source.attribute,
      destinationNode: destination.node.id,
      destinationAttribute: destination.attribute,
    });
    if (call.flags["lock"] === true) graph.touch(destination.node);
    if (call.flags["lock"] === true) destination.data.locked = true;
    return `Connected ${sourceName} to ${destinationName}.`;
  },
};

const disconnectAttr: SceneCommandSpec<MayaScene> = {
  name: "disconnectAttr",
  summary: "Break the connection from a source attribute to a destination attribute.",
  positional: "source: string, destination: string",
  returns: "string",
  flags: "nextAvailable|na",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const source = parsePlug(graph, call.args[0]);
    const destination = parsePlug(graph, call.args[1]);
    const before = graph.state.connections.length;
    graph.state.connections = graph.state.connections.filter(
      (c) =>
        !(
          c.sourceNode === source.node.id &&
          c.sourceAttribute === source.attribute &&
          c.destinationNode === destination.node.id &&
          c.destinationAttribute === destination.attribute
        ),
    );
    const sourceName = plugName(source.node, source.attribute);
    const destinationName = plugName(destination.node, destination.attribute);
    if (graph.state.connections.length === before) {
      throw invalidState(
        `disconnectAttr: There is no connection from '${sourceName}' to '${destinationName}' to disconnect.`,
      );
    }
    return `Disconnect ${sourceName} from ${destinationName}.`;
  },
};

const listConnections: SceneCommandSpec<MayaScene> = {
  name: "listConnections",
  summary:
    "List nodes (or plugs with p) connected to a node or attribute; source (s) / destination (d) to limit the direction; connections (c) pairs; type (t) filter; null when none.",
  positional: "...nodesOrAttributes: string[]",
  returns: "string[] | null",
  flags:
    "source|s:bool destination|d:bool plugs|p connections|c type|t:string exactType|et:string shapes|sh skipConversionNodes|scn",
  mutates: false,
  run(scene, call) {
    const graph = scene.graph;
    const { flags } = call;
    const wantSources = flags["source"] !== false;
    const wantDestinations = flags["destination"] !== false;
    const names = flattenNames(call.args);
    const subjects =
      names.length > 0 ? names : graph.state.selection.map((id) => graph.node(id).name);
    const result: string[] = [];
    for (const name of subjects) {
      const dotted = name.includes(".");
      const plug = dotted ? parsePlug(graph, name) : undefined;
      const node = plug?.node ?? graph.resolve(name);
      const attributes = plug ? [plug.attribute, ...(plug.data.children ?? [])] : undefined;
      const matches = (id: number, attribute: string): boolean =>
        id === node.id && (attributes === undefined || attributes.includes(attribute));
      const add = (mine: [number, string], other: [number, string]): void => {
        const otherNode = graph.node(other[0]);
        if (!passesType(otherNode, flags)) return;
        if (flags["connections"]) result.push(plugName(graph.node(mine[0]), mine[1]));
        result.push(flags["plugs"] ? plugName(otherNode, other[1]) : otherNode.name);
      };
      for (const connection of graph.state.connections) {
        scene.checkpoint();
        const source: [number, string] = [connection.sourceNode, connection.sourceAttribute];
        const destination: [number, string] = [
          connection.destinationNode,
          connection.destinationAttribute,
        ];
        if (wantSources && matches(...destination)) add(destination, source);
        if (wantDestinations && matches(...source)) add(source, destination);
      }
    }
    return result.length === 0 ? null : result;
  },
};

function passesType(node: NodeData, flags: Record<string, unknown>): boolean {
  if (typeof flags["type"] === "string" && !isTypeOf(node.type, flags["type"])) return false;
  if (typeof flags["exactType"] === "string" && node.type !== flags["exactType"]) return false;
  return true;
}

/** connectAttr, disconnectAttr, listConnections. */
export const connectionCommands: SceneCommandSpec<MayaScene>[] = [
  connectAttr,
  disconnectAttr,
  listConnections,
];
