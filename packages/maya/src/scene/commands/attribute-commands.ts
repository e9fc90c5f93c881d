import { assertSettable, findAttribute, incoming, parsePlug, writePlug } from "../attributes.ts";
import type { SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { wildcard } from "../naming.ts";
import { invalidArgument, invalidState } from "../scene-error.ts";
import type { AttributeData, AttributeType } from "../scene-state.ts";
import { formatValue, subject } from "./command-helpers.ts";

const setAttr: SceneCommandSpec<MayaScene> = {
  name: "setAttr",
  summary:
    'Set an attribute: args ["node.attr", value] or ["node.attr", x, y, z] for compounds; lock (l), keyable (k); type (typ) \'string\' for strings.',
  positional: "attribute: string, ...values: unknown[]",
  returns: "null",
  flags: "type|typ:string lock|l:bool keyable|k:bool channelBox|cb:bool clamp|c",
  mutates: true,
  run(scene, call) {
    const [name, ...values] = call.args;
    const plug = parsePlug(scene.graph, name);
    const family = [
      plug.data,
      ...(plug.data.children ?? []).map((child) => plug.node.attributes[child] as AttributeData),
    ];
    if (values.length > 0) writePlug(scene.graph, plug, values);
    else if (
      call.flags["lock"] === undefined &&
      call.flags["keyable"] === undefined &&
      call.flags["channelBox"] === undefined
    ) {
      throw invalidArgument(
        `setAttr: No value given for '${String(name)}'. Put the value after the attribute in args.`,
      );
    }
    // `family` holds the live attribute records; recording the node first keeps them undoable.
    scene.graph.touch(plug.node);
    for (const data of family) {
      if (typeof call.flags["lock"] === "boolean") data.locked = call.flags["lock"];
      if (typeof call.flags["keyable"] === "boolean" && !data.children)
        data.keyable = call.flags["keyable"];
    }
    return null;
  },
};

const getAttr: SceneCommandSpec<MayaScene> = {
  name: "getAttr",
  summary:
    "Get an attribute's value (compounds as [[x, y, z]]), at another time with time (t); or its type (typ), lock (l), keyable (k), settable (se).",
  positional: "attribute: string",
  returns: "unknown",
  flags:
    "time|t:number type|typ lock|l keyable|k settable|se channelBox|cb asString|asString silent|sl size|s",
  mutates: false,
  run(scene, call) {
    const plug = parsePlug(scene.graph, call.args[0]);
    const { flags } = call;
    if (flags["type"]) return plug.data.type;
    if (flags["lock"]) return plug.data.locked;
    if (flags["keyable"]) return plug.data.keyable;
    if (flags["channelBox"]) return false;
    if (flags["size"]) return 1;
    if (flags["settable"]) {
      try {
        assertSettable(scene.graph, plug);
        return true;
      } catch {
        return false;
      }
    }
    if (plug.data.type === "message") {
      throw invalidArgument(
        `getAttr: '${plug.node.name}.${plug.attribute}' is a message attribute and has no value.`,
      );
    }
    const time = typeof flags["time"] === "number" ? flags["time"] : scene.graph.state.currentTime;
    const value = formatValue(scene, plug.node, plug.attribute, time);
    if (flags["asString"] && plug.data.type === "enum")
      return plug.data.enumNames?.[Number(value)] ?? String(value);
    return value;
  },
};

const scalarTypes: AttributeType[] = [
  "double",
  "float",
  "long",
  "short",
  "bool",
  "enum",
  "message",
];

const addAttr: SceneCommandSpec<MayaScene> = {
  name: "addAttr",
  summary:
    "Add a custom attribute: longName (ln), shortName (sn), attributeType (at: double, float, long, short, bool, enum, double3, float3, message) or dataType (dt: string); defaultValue (dv), minValue/maxValue, enumName (en), keyable (k).",
  positional: "...objects: string[]",
  returns: "null",
  flags:
    "longName|ln:string shortName|sn:string niceName|nn:string attributeType|at:string dataType|dt:string defaultValue|dv:any minValue|min:number maxValue|max:number hasMinValue|hnv:bool hasMaxValue|hxv:bool keyable|k:bool enumName|en:string hidden|h:bool",
  mutates: true,
  run(scene, call) {
    const { flags } = call;
    const longName = flags["longName"] ?? flags["shortName"];
    if (typeof longName !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(longName)) {
      throw invalidArgument("addAttr: give a valid longName (ln).");
    }
    const shortName = typeof flags["shortName"] === "string" ? flags["shortName"] : longName;
    const dataType = flags["dataType"];
    const attributeType = flags["attributeType"] ?? (dataType === undefined ? "double" : undefined);
    let type: AttributeType;
    if (dataType !== undefined) {
      if (dataType !== "string")
        throw invalidArgument(
          `addAttr: dataType '${String(dataType)}' is not simulated; use 'string' or an attributeType.`,
        );
      type = "string";
    } else if (
      attributeType === "double3" ||
      attributeType === "float3" ||
      scalarTypes.includes(attributeType as AttributeType)
    ) {
      type = attributeType as AttributeType;
    } else {
      throw invalidArgument(
        `addAttr: attributeType '${String(attributeType)}' is not simulated; use one of ${[...scalarTypes, "double3", "float3"].join(", ")}.`,
      );
    }
    for (const node of scene.targets(call)) {
      scene.graph.touch(node);
      if (findAttribute(node, longName) || findAttribute(node, shortName)) {
        throw invalidState(
          `addAttr: Found an existing attribute named '${longName}' on '${node.name}'.`,
        );
      }
      const base = { keyable: flags["keyable"] === true, locked: false, dynamic: true };
      const withRange = (data: AttributeData): AttributeData => {
        if (typeof flags["minValue"] === "number" && flags["hasMinValue"] !== false)
          data.min = flags["minValue"];
        if (typeof flags["maxValue"] === "number" && flags["hasMaxValue"] !== false)
          data.max = flags["maxValue"];
        return data;
      };
      if (type === "double3" || type === "float3") {
        // Maya wants the three children added one by one; the simulation adds X/Y/Z for you.
        const children = ["X", "Y", "Z"].map((axis) => `${longName}${axis}`);
        node.attributes[longName] = {
          shortName,
          type,
          value: null,
          children,
          ...base,
          keyable: false,
        };
        const defaults = Array.isArray(flags["defaultValue"])
          ? (flags["defaultValue"] as number[])
          : [];
        children.forEach((child, index) => {
          node.attributes[child] = withRange({
            shortName: `${shortName}${"XYZ"[index]}`,
            type: type === "float3" ? "float" : "double",
            value:
              defaults[index] ??
              (typeof flags["defaultValue"] === "number" ? flags["defaultValue"] : 0),
            parent: longName,
            ...base,
          });
        });
        continue;
      }
      const data: AttributeData = withRange({ shortName, type, value: null, ...base });
      if (type === "enum") {
        const names = typeof flags["enumName"] === "string" ? flags["enumName"] : "";
        data.enumNames = names
          .split(":")
          .filter((item) => item !== "")
          .map((item) => item.replace(/=\d+$/, ""));
        if (data.enumNames.length === 0)
          throw invalidArgument(
            "addAttr: an enum attribute needs enumName (en), e.g. 'Low:Medium:High'.",
          );
      }
      if (type === "string")
        data.value = typeof flags["defaultValue"] === "string" ? flags["defaultValue"] : "";
      else if (type === "bool")
        data.value = flags["defaultValue"] === true || flags["defaultValue"] === 1;
      else if (type !== "message") {
        const value = typeof flags["defaultValue"] === "number" ? flags["defaultValue"] : 0;
        data.value = Math.min(data.max ?? value, Math.max(data.min ?? value, value));
      }
      node.attributes[longName] = data;
    }
    return null;
  },
};

const deleteAttr: SceneCommandSpec<MayaScene> = {
  name: "deleteAttr",
  summary: 'Delete a custom (dynamic) attribute: args ["node.attr"] or [node] with attribute (at).',
  positional: "attributeOrNode: string",
  returns: "null",
  flags: "attribute|at:string",
  mutates: true,
  run(scene, call) {
    const text =
      typeof call.flags["attribute"] === "string"
        ? `${String(call.args[0])}.${call.flags["attribute"]}`
        : call.args[0];
    const plug = parsePlug(scene.graph, text);
    if (!plug.data.dynamic || plug.data.parent) {
      throw invalidArgument(
        `deleteAttr: '${plug.node.name}.${plug.attribute}' is not a dynamic attribute and cannot be deleted.`,
      );
    }
    const doomed = [plug.attribute, ...(plug.data.children ?? [])];
    scene.graph.touch(plug.node);
    for (const name of doomed) delete plug.node.attributes[name];
    const state = scene.graph.state;
    state.connections = state.connections.filter(
      (c) =>
        !(c.sourceNode === plug.node.id && doomed.includes(c.sourceAttribute)) &&
        !(c.destinationNode === plug.node.id && doomed.includes(c.destinationAttribute)),
    );
    return null;
  },
};

const listAttr: SceneCommandSpec<MayaScene> = {
  name: "listAttr",
  summary:
    "List a node's attributes; keyable (k), userDefined (ud), locked (l), unlocked (u), scalar (s), string (st) patterns, shortNames (sn); null when none.",
  positional: "node: string",
  returns: "string[] | null",
  flags:
    "keyable|k userDefined|ud locked|l unlocked|u scalar|s string|st:strings shortNames|sn connectable|c settable|w",
  mutates: false,
  run(scene, call) {
    const node = subject(scene, call);
    const { flags } = call;
    const patterns = (flags["string"] as string[] | undefined)?.map(wildcard);
    const names: string[] = [];
    for (const [long, data] of Object.entries(node.attributes)) {
      if (flags["keyable"] && !data.keyable) continue;
      if (flags["userDefined"] && !data.dynamic) continue;
      if (flags["locked"] && !data.locked) continue;
      if (flags["unlocked"] && data.locked) continue;
      if (flags["scalar"] && (data.children || data.type === "string" || data.type === "message"))
        continue;
      if (flags["settable"] && (data.locked || incoming(scene.graph, node, long))) continue;
      if (patterns && !patterns.some((matches) => matches(long) || matches(data.shortName)))
        continue;
      names.push(flags["shortNames"] ? data.shortName : long);
    }
    return names.length === 0 ? null : names;
  },
};

const attributeQuery: SceneCommandSpec<MayaScene> = {
  name: "attributeQuery",
  summary:
    "Ask about an attribute of a node (node (n) flag): exists (ex), attributeType (at), keyable (k), listChildren (lc), listParent (lp), listEnum (le), minimum/maximum, longName/shortName.",
  positional: "attribute: string",
  returns: "unknown",
  flags:
    "node|n:string exists|ex attributeType|at keyable|k listChildren|lc listParent|lp listEnum|le minExists|mne maxExists|mxe minimum|min maximum|max longName|ln shortName|sn",
  mutates: false,
  run(scene, call) {
    const node = scene.resolve(call.flags["node"]);
    const name = call.args[0];
    if (typeof name !== "string")
      throw invalidArgument(
        "attributeQuery: expects the attribute name in args and the node in the node (n) flag.",
      );
    const found = findAttribute(node, name);
    const { flags } = call;
    if (flags["exists"]) return found !== undefined;
    if (!found)
      throw invalidArgument(`attributeQuery: No attribute named '${name}' on '${node.name}'.`);
    const [long, data] = found;
    if (flags["attributeType"]) return data.type === "string" ? "typed" : data.type;
    if (flags["keyable"]) return data.keyable;
    if (flags["listChildren"]) return data.children ?? null;
    if (flags["listParent"]) return data.parent ? [data.parent] : null;
    if (flags["listEnum"]) return data.enumNames ? [data.enumNames.join(":")] : null;
    if (flags["minExists"]) return data.min !== undefined;
    if (flags["maxExists"]) return data.max !== undefined;
    if (flags["minimum"]) return data.min === undefined ? null : [data.min];
    if (flags["maximum"]) return data.max === undefined ? null : [data.max];
    if (flags["shortName"]) return data.shortName;
    if (flags["longName"]) return long;
    throw invalidArgument("attributeQuery: say what to ask, e.g. { exists: true }.");
  },
};

/** setAttr, getAttr, addAttr, deleteAttr, listAttr, attributeQuery. */
export const attributeCommands: SceneCommandSpec<MayaScene>[] = [
  setAttr,
  getAttr,
  addAttr,
  deleteAttr,
  listAttr,
  attributeQuery,
];
