import { findAttribute } from "../attributes.ts";
import type { SceneCall, SceneCommandSpec } from "../command-spec.ts";
import type { MayaScene } from "../maya-scene.ts";
import { invalidArgument } from "../scene-error.ts";
import type { NodeData } from "../scene-state.ts";
import { assertNoCreateArgs, desiredName, formatValue, setIf, shapeOf } from "./command-helpers.ts";
import { createLight } from "./light-helpers.ts";

/** Flags that move the transform rather than set a shape attribute. */
const transformFlags: Record<string, string> = { position: "translate", rotation: "rotate" };

/** Applies flags to a shape (via the alias table) and its transform. */
function applyShapeFlags(
  scene: MayaScene,
  shape: NodeData,
  call: SceneCall,
  aliases: Record<string, string>,
): void {
  const transform = shape.parent === null ? undefined : scene.graph.node(shape.parent);
  for (const [flag, value] of Object.entries(call.flags)) {
    if (flag === "name" || flag === "query" || flag === "edit") continue;
    const channel = transformFlags[flag];
    if (channel) {
      if (transform) setIf(scene, transform, channel, value);
      continue;
    }
    setIf(scene, shape, aliases[flag] ?? flag, value);
  }
}

/** Answers `{ query: true, <flag>: true }` from a shape attribute or its transform. */
function queryShape(
  scene: MayaScene,
  shape: NodeData,
  call: SceneCall,
  aliases: Record<string, string>,
): unknown {
  const flag = Object.keys(call.flags).find((name) => name !== "query" && name !== "name");
  if (!flag)
    throw invalidArgument(
      `${call.command}: say which flag to query, e.g. { query: true, intensity: true }.`,
    );
  const channel = transformFlags[flag];
  const node = channel && shape.parent !== null ? scene.graph.node(shape.parent) : shape;
  const attribute = channel ?? aliases[flag] ?? flag;
  if (!findAttribute(node, attribute))
    throw invalidArgument(`${call.command}: '${flag}' cannot be queried.`);
  const value = formatValue(scene, node, attribute, scene.graph.state.currentTime);
  return Array.isArray(value) ? value[0] : value;
}

function light(
  name: string,
  extraFlags: string,
  aliases: Record<string, string>,
): SceneCommandSpec<MayaScene> {
  const allAliases = { intensity: "intensity", rgb: "color", ...aliases };
  return {
    name,
    summary: `Create a ${name} (transform + shape) with intensity (i), rgb color, position (pos) and rotation (rot); returns the light shape. Query (q) or edit (e) an existing light.`,
    positional: "light?: string",
    returns: "string",
    flags: `name|n:string intensity|i:number rgb|rgb:vector3 position|pos:vector3 rotation|rot:vector3 ${extraFlags}`,
    queryable: true,
    editable: true,
    mutates: true,
    run(scene, call) {
      if (call.query || call.edit) {
        const shape = shapeOf(scene, scene.resolve(call.args[0]));
        if (shape.type !== name)
          throw invalidArgument(`${name}: '${shape.name}' is not a ${name}.`);
        if (call.query) return queryShape(scene, shape, call, allAliases);
        applyShapeFlags(scene, shape, call, allAliases);
        return null;
      }
      assertNoCreateArgs(call);
      const { shape } = createLight(scene, name, desiredName(call, `${name}#`));
      applyShapeFlags(scene, shape, call, allAliases);
      return shape.name;
    },
  };
}

const cameraAliases: Record<string, string> = {};

const camera: SceneCommandSpec<MayaScene> = {
  name: "camera",
  summary:
    "Create a camera (returns [transform, shape]) with focalLength (fl), near/farClipPlane (ncp/fcp), orthographic (o), position (p), rotation (rot); or query (q)/edit (e) one.",
  positional: "camera?: string",
  returns: "string[]",
  flags:
    "name|n:string focalLength|fl:number nearClipPlane|ncp:number farClipPlane|fcp:number orthographic|o:bool orthographicWidth|ow:number centerOfInterest|coi:number horizontalFilmAperture|hfa:number verticalFilmAperture|vfa:number position|p:vector3 rotation|rot:vector3",
  queryable: true,
  editable: true,
  mutates: true,
  run(scene, call) {
    if (call.query || call.edit) {
      const shape = shapeOf(scene, scene.resolve(call.args[0]));
      if (shape.type !== "camera")
        throw invalidArgument(`camera: '${shape.name}' is not a camera.`);
      if (call.query) return queryShape(scene, shape, call, cameraAliases);
      applyShapeFlags(scene, shape, call, cameraAliases);
      return null;
    }
    assertNoCreateArgs(call);
    const { transform, shape } = scene.graph.createTransformWithShape(
      "camera",
      desiredName(call, "camera#"),
    );
    applyShapeFlags(scene, shape, call, cameraAliases);
    scene.select([transform]);
    return [transform.name, shape.name];
  },
};

const spaceLocator: SceneCommandSpec<MayaScene> = {
  name: "spaceLocator",
  summary:
    "Create a locator (returns [transform]); position (p) sets the locator shape's localPosition, as in Maya.",
  returns: "string[]",
  flags: "name|n:string position|p:vector3",
  mutates: true,
  run(scene, call) {
    const { transform, shape } = scene.graph.createTransformWithShape(
      "locator",
      desiredName(call, "locator#"),
    );
    setIf(scene, shape, "localPosition", call.flags["position"]);
    scene.select([transform]);
    return [transform.name];
  },
};

/** camera, directionalLight, pointLight, spotLight, ambientLight, spaceLocator. */
export const cameraLightCommands: SceneCommandSpec<MayaScene>[] = [
  camera,
  light("directionalLight", "", {}),
  light("pointLight", "decayRate|d:int", {}),
  light("spotLight", "coneAngle|ca:number penumbra|p:number dropOff|dro:number", {
    penumbra: "penumbraAngle",
    dropOff: "dropoff",
  }),
  light("ambientLight", "ambientShade:number", {}),
  spaceLocator,
];
