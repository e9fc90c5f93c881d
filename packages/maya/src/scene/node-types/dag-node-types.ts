// DAG node types: transforms and the shapes under them (meshes, locators, cameras, lights).
import {
  type AttributeTemplate,
  color,
  dagAttributes,
  enumeration,
  type NodeTypeEntry,
  scalar,
  vector,
} from "./attribute-template.ts";

const rotateOrders = ["xyz", "yzx", "zxy", "xzy", "yxz", "zyx"];

const transformAttributes: AttributeTemplate[] = [
  ...dagAttributes,
  vector(
    "translate",
    "t",
    [0, 0, 0],
    [
      ["translateX", "tx"],
      ["translateY", "ty"],
      ["translateZ", "tz"],
    ],
    true,
  ),
  vector(
    "rotate",
    "r",
    [0, 0, 0],
    [
      ["rotateX", "rx"],
      ["rotateY", "ry"],
      ["rotateZ", "rz"],
    ],
    true,
  ),
  vector(
    "scale",
    "s",
    [1, 1, 1],
    [
      ["scaleX", "sx"],
      ["scaleY", "sy"],
      ["scaleZ", "sz"],
    ],
    true,
  ),
  { long: "rotateOrder", short: "ro", type: "enum", value: 0, enumNames: rotateOrders },
];

const lightAttributes = [
  ...dagAttributes,
  color("color", "cl", [1, 1, 1]),
  scalar("intensity", "in", "double", 1, true),
];

/** `dagNode`, `transform`, `shape` and the simulated shapes. */
export const dagNodeTypes: Record<string, NodeTypeEntry> = {
  dagNode: { base: "dependNode", abstract: true, attributes: dagAttributes },
  transform: { base: "dagNode", attributes: transformAttributes },
  shape: { base: "dagNode", abstract: true, attributes: dagAttributes },
  mesh: {
    base: "shape",
    attributes: [
      ...dagAttributes,
      scalar("castsShadows", "csh", "bool", true),
      scalar("receiveShadows", "rcsh", "bool", true),
      scalar("inMesh", "i", "message", null),
      scalar("outMesh", "o", "message", null),
    ],
  },
  locator: {
    base: "shape",
    attributes: [...dagAttributes, vector("localPosition", "lp", [0, 0, 0])],
  },
  camera: {
    base: "shape",
    attributes: [
      ...dagAttributes,
      scalar("focalLength", "fl", "double", 35, true),
      scalar("nearClipPlane", "ncp", "double", 0.1),
      scalar("farClipPlane", "fcp", "double", 10000),
      scalar("orthographic", "o", "bool", false),
      scalar("orthographicWidth", "ow", "double", 30),
      scalar("centerOfInterest", "coi", "double", 5),
      scalar("horizontalFilmAperture", "hfa", "double", 1.41732),
      scalar("verticalFilmAperture", "vfa", "double", 0.94488),
    ],
  },
  light: { base: "shape", abstract: true, attributes: lightAttributes },
  directionalLight: { base: "light", attributes: lightAttributes },
  pointLight: {
    base: "light",
    attributes: [
      ...lightAttributes,
      enumeration("decayRate", "de", 0, ["No Decay", "Linear", "Quadratic", "Cubic"]),
    ],
  },
  spotLight: {
    base: "light",
    attributes: [
      ...lightAttributes,
      scalar("coneAngle", "ca", "double", 40, true),
      scalar("penumbraAngle", "pa", "double", 0, true),
      scalar("dropoff", "dro", "double", 0, true),
    ],
  },
  ambientLight: {
    base: "light",
    attributes: [...lightAttributes, scalar("ambientShade", "as", "double", 0.45, true)],
  },
};
