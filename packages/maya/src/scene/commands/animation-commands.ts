import { curveTypeFor, evaluateCurve, inRange, putKey } from "../animation.ts";
import { evaluate, findAttribute, incoming, parsePlug } from "../attributes.ts";
import type { SceneCall, SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { flattenNames } from "../naming.ts";
import { isTypeOf } from "../node-types.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { numberArg } from "./command-helpers.ts";

/** A keyable scalar attribute of a node. */
interface Channel {
  node: NodeData;
  attribute: string;
}

/** The channels a key command acts on: `node.attr` arguments, the attribute (at) flag, or every keyable channel. */
function channels(scene: MayaScene, call: SceneCall, options: { onlyKeyed: boolean }): Channel[] {
  const graph = scene.graph;
  const names = flattenNames(call.args);
  const subjects =
    names.length > 0 ? names : graph.state.selection.map((id) => graph.node(id).name);
  if (subjects.length === 0)
    throw invalidArgument(`${call.command}: Not enough objects or values.`);
  const requested = call.flags["attribute"] as string[] | undefined;
  const result: Channel[] = [];
  const expand = (node: NodeData, attribute: string): void => {
    const data = node.attributes[attribute];
    if (data?.children) for (const child of data.children) result.push({ node, attribute: child });
    else result.push({ node, attribute });
  };
  for (const subject of subjects) {
    if (subject.includes(".")) {
      const plug = parsePlug(graph, subject);
      expand(plug.node, plug.attribute);
      continue;
    }
    const node = graph.resolve(subject);
    if (requested) {
      for (const name of requested) {
        const found = findAttribute(node, name);
        if (!found)
          throw invalidArgument(`${call.command}: '${node.name}' has no attribute '${name}'.`);
        expand(node, found[0]);
      }
      continue;
    }
    for (const [attribute, data] of Object.entries(node.attributes)) {
      if (options.onlyKeyed ? curveOf(scene, node, attribute) : data.keyable && !data.children) {
        result.push({ node, attribute });
      }
    }
  }
  return result;
}

/** The animation curve driving a channel, if any. */
function curveOf(scene: MayaScene, node: NodeData, attribute: string): NodeData | undefined {
  const connection = incoming(scene.graph, node, attribute);
  const source = connection ? scene.graph.node(connection.sourceNode) : undefined;
  return source && isTypeOf(source.type, "animCurve") ? source : undefined;
}

/** Reads the time (t) flag: one time, `[start, end]`, or `"start:end"`. */
function timeRange(value: unknown): [number, number] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return [value, value];
  if (typeof value === "string" && value.includes(":")) {
    const [start, end] = value.split(":").map((part) => (part === "" ? Number.NaN : Number(part)));
    return [
      Number.isNaN(start) ? -Infinity : (start as number),
      Number.isNaN(end) ? Infinity : (end as number),
    ];
  }
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((item) => typeof item === "number")
  ) {
    return [value[0] as number, value[1] as number];
  }
  throw invalidArgument(
    `time expects a number, [start, end] or "start:end", got ${JSON.stringify(value)}`,
  );
}

const setKeyframe: SceneCommandSpec<MayaScene> = {
  name: "setKeyframe",
  summary:
    "Key attributes of objects (or the selection) at the current time or time (t), with their current value or value (v); attribute (at) picks channels; returns the number of keys set.",
  positional: "...objectsOrAttributes: string[]",
  returns: "number",
  flags:
    "attribute|at:strings time|t:any value|v:number inTangentType|itt:string outTangentType|ott:string breakdown|bd",
  mutates: true,
  run(scene, call) {
    const graph = scene.graph;
    const timeFlag = call.flags["time"];
    const times =
      timeFlag === undefined
        ? [graph.state.currentTime]
        : Array.isArray(timeFlag)
          ? timeFlag
          : [timeFlag];
    let count = 0;
    for (const { node, attribute } of channels(scene, call, { onlyKeyed: false })) {
      scene.checkpoint();
      const data = node.attributes[attribute];
      if (!data || data.locked || ["string", "message"].includes(data.type)) continue;
      const connection = incoming(graph, node, attribute);
      if (connection && !curveOf(scene, node, attribute)) continue;
      // Read the value before a new (empty) curve starts driving the attribute.
      const current = Number(evaluate(graph, node, attribute, graph.state.currentTime));
      let curve = curveOf(scene, node, attribute);
      if (!curve) {
        curve = graph.createNode(curveTypeFor(attribute), { name: `${node.name}_${attribute}` });
        curve.keys = [];
        graph.state.connections.push({
          sourceNode: curve.id,
          sourceAttribute: "output",
          destinationNode: node.id,
          destinationAttribute: attribute,
        });
      }
      scene.graph.touch(curve);
      for (const time of times) {
        const value =
          call.flags["value"] === undefined ? current : numberArg(call.flags["value"], "value");
        putKey(curve, {
          time: numberArg(time, "time"),
          value,
          step: call.flags["outTangentType"] === "step",
        });
        count++;
      }
    }
    return count;
  },
};

function curvesFor(scene: MayaScene, call: SceneCall): NodeData[] {
  const names = flattenNames(call.args);
  const direct = names
    .map((name) => scene.graph.find(name))
    .filter((node) => node && isTypeOf(node.type, "animCurve"));
  if (direct.length > 0 && direct.length === names.length) return direct as NodeData[];
  return channels(scene, call, { onlyKeyed: true }).flatMap(
    ({ node, attribute }) => curveOf(scene, node, attribute) ?? [],
  );
}

const keyframe: SceneCommandSpec<MayaScene> = {
  name: "keyframe",
  summary:
    "Query keys (q with keyframeCount (kc), timeChange (tc) for times, valueChange (vc) for values, name (n) for curves) or edit them (timeChange/valueChange, absolute or relative (r)) within time (t).",
  positional: "...objectsOrAttributes: string[]",
  returns: "number | number[] | string[]",
  flags:
    "attribute|at:strings time|t:any keyframeCount|kc timeChange|tc:any valueChange|vc:any absolute|a relative|r name|n eval|ev",
  queryable: true,
  editable: true,
  mutates: true,
  run(scene, call) {
    const { flags } = call;
    const range = timeRange(flags["time"]);
    const curves = curvesFor(scene, call);
    if (call.query) {
      if (flags["name"]) return curves.map((curve) => curve.name);
      if (flags["eval"]) {
        const at = range?.[0] ?? scene.graph.state.currentTime;
        return curves.map((curve) => evaluateCurve(curve.keys ?? [], at));
      }
      const keys = curves.flatMap((curve) =>
        (curve.keys ?? []).filter((key) => inRange(key.time, range)),
      );
      if (flags["keyframeCount"]) return keys.length;
      if (flags["valueChange"]) return keys.map((key) => key.value);
      return keys.map((key) => key.time);
    }
    let changed = 0;
    const relative = flags["relative"] === true;
    for (const curve of curves) {
      scene.graph.touch(curve);
      for (const key of curve.keys ?? []) {
        if (!inRange(key.time, range)) continue;
        if (flags["valueChange"] !== undefined) {
          const value = numberArg(flags["valueChange"], "valueChange");
          key.value = relative ? key.value + value : value;
        }
        if (flags["timeChange"] !== undefined) {
          const time = numberArg(flags["timeChange"], "timeChange");
          key.time = relative ? key.time + time : time;
        }
        changed++;
      }
      curve.keys?.sort((a, b) => a.time - b.time);
    }
    return changed;
  },
};

const cutKey: SceneCommandSpec<MayaScene> = {
  name: "cutKey",
  summary:
    "Remove keys of objects' channels (all, or attribute (at) ones) within time (t); curves left empty are deleted; returns the number of curves changed.",
  positional: "...objectsOrAttributes: string[]",
  returns: "number",
  flags: "attribute|at:strings time|t:any clear|cl option|o:string",
  mutates: true,
  run(scene, call) {
    const range = timeRange(call.flags["time"]);
    let count = 0;
    const empty: number[] = [];
    for (const curve of curvesFor(scene, call)) {
      const before = curve.keys?.length ?? 0;
      const kept = (curve.keys ?? []).filter((key) => !inRange(key.time, range));
      scene.graph.touch(curve).keys = kept;
      if (kept.length !== before) count++;
      if (kept.length === 0) empty.push(curve.id);
    }
    scene.graph.remove(empty);
    return count;
  },
};

const currentTime: SceneCommandSpec<MayaScene> = {
  name: "currentTime",
  summary: "Set the current frame (args [frame]) and return it, or query it with query (q).",
  positional: "frame?: number",
  returns: "number",
  flags: "update|u:bool",
  queryable: true,
  editable: true,
  mutates: false,
  run(scene, call) {
    if (call.query || call.args.length === 0) return scene.graph.state.currentTime;
    scene.graph.state.currentTime = numberArg(call.args[0], "currentTime");
    return scene.graph.state.currentTime;
  },
};

const playbackKeys = [
  "minTime",
  "maxTime",
  "animationStartTime",
  "animationEndTime",
  "by",
  "playbackSpeed",
] as const;

const playbackOptions: SceneCommandSpec<MayaScene> = {
  name: "playbackOptions",
  summary:
    "Set or query (q) the playback range minTime (min)/maxTime (max), animationStartTime (ast)/animationEndTime (aet), by, playbackSpeed (ps).",
  returns: "number | null",
  flags:
    "minTime|min:number maxTime|max:number animationStartTime|ast:number animationEndTime|aet:number by|by:number playbackSpeed|ps:number loop|l:string",
  queryable: true,
  editable: true,
  mutates: false,
  run(scene, call) {
    const playback = scene.graph.state.playback;
    if (call.query) {
      const key = playbackKeys.find((name) => call.flags[name] === true);
      if (call.flags["loop"] === true) return "continuous";
      if (!key)
        throw invalidArgument(
          "playbackOptions: say what to query, e.g. { query: true, minTime: true }.",
        );
      return playback[key];
    }
    const next = { ...playback };
    for (const key of playbackKeys) {
      if (call.flags[key] !== undefined) next[key] = numberArg(call.flags[key], key);
    }
    if (next.minTime > next.maxTime)
      throw invalidArgument("playbackOptions: minTime must not be after maxTime.");
    // Maya widens the animation range to contain the playback range.
    next.animationStartTime = Math.min(next.animationStartTime, next.minTime);
    next.animationEndTime = Math.max(next.animationEndTime, next.maxTime);
    scene.graph.state.playback = next;
    return null;
  },
};

/** setKeyframe, keyframe, cutKey, currentTime, playbackOptions. */
export const animationCommands: SceneCommandSpec<MayaScene>[] = [
  setKeyframe,
  keyframe,
  cutKey,
  currentTime,
  playbackOptions,
];
