import type { AttributeData, AttributeType, ScalarValue } from "./scene-state.ts";

/** A template of one attribute (a compound lists its children's names and defaults). */
interface AttributeTemplate {
  long: string;
  short: string;
  type: AttributeType;
  value: ScalarValue | number[];
  keyable?: boolean;
  children?: Array<[long: string, short: string]>;
  enumNames?: string[];
}

/** Description of a simulated node type. */
export interface NodeTypeInfo {
  /** Type chain from the root, ending with the type itself (`nodeType -inherited`). */
  inherited: string[];
  /** True for DAG nodes (they have a place in the hierarchy). */
  dag: boolean;
  /** True for shape nodes. */
  shape: boolean;
  attributes: AttributeTemplate[];
}

const xyz = (long: string, short: string): Array<[string, string]> => [
  [`${long}X`, `${short}x`],
  [`${long}Y`, `${short}y`],
  [`${long}Z`, `${short}z`],
];
const rgb = (long: string, short: string): Array<[string, string]> => [
  [`${long}R`, `${short}r`],
  [`${long}G`, `${short}g`],
  [`${long}B`, `${short}b`],
];
const vector = (
  long: string,
  short: string,
  value: number[],
  children: Array<[string, string]> = xyz(long, short),
  keyable = false,
): AttributeTemplate => ({ long, short, type: "double3", value, children, keyable });
const scalar = (
  long: string,
  short: string,
  type: AttributeType,
  value: ScalarValue,
  keyable = false,
): AttributeTemplate => ({ long, short, type, value, keyable });
const color = (long: string, short: string, value: number[]): AttributeTemplate =>
  vector(long, short, value, rgb(long, short), true);

const rotateOrders = ["xyz", "yzx", "zxy", "xzy", "yxz", "zyx"];
const dagAttributes = [scalar("visibility", "v", "bool", true, true)];
const transformAttributes: AttributeTemplate[] = [
  ...dagAttributes,
  {
    ...vector(
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
  },
  {
    ...vector(
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
  },
  {
    ...vector(
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
  },
  { long: "rotateOrder", short: "ro", type: "enum", value: 0, enumNames: rotateOrders },
];
const axis = vector(
  "axis",
  "ax",
  [0, 1, 0],
  [
    ["axisX", "axx"],
    ["axisY", "axy"],
    ["axisZ", "axz"],
  ],
);
const lambertAttributes = [
  color("color", "c", [0.5, 0.5, 0.5]),
  color("transparency", "it", [0, 0, 0]),
  color("ambientColor", "ambc", [0, 0, 0]),
  color("incandescence", "ic", [0, 0, 0]),
  scalar("diffuse", "dc", "double", 0.8, true),
  vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc")),
];
const standardSurfaceAttributes = [
  scalar("base", "b", "double", 1, true),
  color("baseColor", "bc", [0.8, 0.8, 0.8]),
  scalar("metalness", "m", "double", 0, true),
  scalar("specular", "s", "double", 1, true),
  scalar("specularRoughness", "sr", "double", 0.2, true),
  scalar("emission", "e", "double", 0, true),
  vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc")),
];
const lightAttributes = [
  ...dagAttributes,
  color("color", "cl", [1, 1, 1]),
  scalar("intensity", "in", "double", 1, true),
];
const curveAttributes = [scalar("output", "o", "double", 0)];

const types: Record<string, Omit<NodeTypeInfo, "inherited"> & { base: string | null }> = {
  dependNode: { base: null, dag: false, shape: false, attributes: [] },
  dagNode: { base: "dependNode", dag: true, shape: false, attributes: dagAttributes },
  transform: { base: "dagNode", dag: true, shape: false, attributes: transformAttributes },
  shape: { base: "dagNode", dag: true, shape: true, attributes: dagAttributes },
  mesh: {
    base: "shape",
    dag: true,
    shape: true,
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
    dag: true,
    shape: true,
    attributes: [...dagAttributes, vector("localPosition", "lp", [0, 0, 0])],
  },
  camera: {
    base: "shape",
    dag: true,
    shape: true,
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
  light: { base: "shape", dag: true, shape: true, attributes: lightAttributes },
  directionalLight: { base: "light", dag: true, shape: true, attributes: lightAttributes },
  pointLight: {
    base: "light",
    dag: true,
    shape: true,
    attributes: [
      ...lightAttributes,
      {
        ...scalar("decayRate", "de", "enum", 0),
        enumNames: ["No Decay", "Linear", "Quadratic", "Cubic"],
      },
    ],
  },
  spotLight: {
    base: "light",
    dag: true,
    shape: true,
    attributes: [
      ...lightAttributes,
      scalar("coneAngle", "ca", "double", 40, true),
      scalar("penumbraAngle", "pa", "double", 0, true),
      scalar("dropoff", "dro", "double", 0, true),
    ],
  },
  ambientLight: {
    base: "light",
    dag: true,
    shape: true,
    attributes: [...lightAttributes, scalar("ambientShade", "as", "double", 0.45, true)],
  },
  polySphere: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("radius", "r", "double", 1, true),
      scalar("subdivisionsAxis", "sa", "long", 20, true),
      scalar("subdivisionsHeight", "sh", "long", 20, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  polyCube: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("width", "w", "double", 1, true),
      scalar("height", "h", "double", 1, true),
      scalar("depth", "d", "double", 1, true),
      scalar("subdivisionsWidth", "sw", "long", 1, true),
      scalar("subdivisionsHeight", "sh", "long", 1, true),
      scalar("subdivisionsDepth", "sd", "long", 1, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  polyCylinder: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("radius", "r", "double", 1, true),
      scalar("height", "h", "double", 2, true),
      scalar("subdivisionsAxis", "sa", "long", 20, true),
      scalar("subdivisionsHeight", "sh", "long", 1, true),
      scalar("subdivisionsCaps", "sc", "long", 0, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  polyPlane: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("width", "w", "double", 1, true),
      scalar("height", "h", "double", 1, true),
      scalar("subdivisionsWidth", "sw", "long", 10, true),
      scalar("subdivisionsHeight", "sh", "long", 10, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  polyCone: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("radius", "r", "double", 1, true),
      scalar("height", "h", "double", 2, true),
      scalar("subdivisionsAxis", "sa", "long", 20, true),
      scalar("subdivisionsHeight", "sh", "long", 1, true),
      scalar("subdivisionsCap", "sc", "long", 0, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  polyTorus: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("radius", "r", "double", 1, true),
      scalar("sectionRadius", "sr", "double", 0.5, true),
      scalar("twist", "tw", "double", 0, true),
      scalar("subdivisionsAxis", "sa", "long", 20, true),
      scalar("subdivisionsHeight", "sh", "long", 20, true),
      axis,
      scalar("output", "out", "message", null),
    ],
  },
  objectSet: { base: "dependNode", dag: false, shape: false, attributes: [] },
  shadingEngine: {
    base: "objectSet",
    dag: false,
    shape: false,
    attributes: [
      scalar("surfaceShader", "ss", "message", null),
      scalar("volumeShader", "vs", "message", null),
      scalar("displacementShader", "ds", "message", null),
    ],
  },
  lambert: { base: "dependNode", dag: false, shape: false, attributes: lambertAttributes },
  blinn: {
    base: "lambert",
    dag: false,
    shape: false,
    attributes: [
      ...lambertAttributes,
      color("specularColor", "sc", [0.5, 0.5, 0.5]),
      scalar("eccentricity", "ec", "double", 0.3, true),
    ],
  },
  phong: {
    base: "lambert",
    dag: false,
    shape: false,
    attributes: [
      ...lambertAttributes,
      color("specularColor", "sc", [0.5, 0.5, 0.5]),
      scalar("cosinePower", "cp", "double", 20, true),
    ],
  },
  surfaceShader: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [color("outColor", "oc", [0, 0, 0])],
  },
  standardSurface: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: standardSurfaceAttributes,
  },
  aiStandardSurface: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: standardSurfaceAttributes,
  },
  file: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("fileTextureName", "ftn", "string", ""),
      vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc")),
      scalar("outAlpha", "oa", "double", 0),
    ],
  },
  checker: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      color("color1", "c1", [1, 1, 1]),
      color("color2", "c2", [0, 0, 0]),
      vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc")),
    ],
  },
  ramp: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc"))],
  },
  place2dTexture: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      scalar("repeatU", "reu", "double", 1, true),
      scalar("repeatV", "rev", "double", 1, true),
      scalar("rotateUV", "ro", "double", 0, true),
    ],
  },
  multiplyDivide: {
    base: "dependNode",
    dag: false,
    shape: false,
    attributes: [
      {
        ...scalar("operation", "op", "enum", 1),
        enumNames: ["No operation", "Multiply", "Divide", "Power"],
      },
      vector("input1", "i1", [0, 0, 0], xyz("input1", "i1"), true),
      vector("input2", "i2", [1, 1, 1], xyz("input2", "i2"), true),
      vector("output", "o", [0, 0, 0], xyz("output", "o")),
    ],
  },
  animCurve: { base: "dependNode", dag: false, shape: false, attributes: curveAttributes },
  animCurveTL: { base: "animCurve", dag: false, shape: false, attributes: curveAttributes },
  animCurveTA: { base: "animCurve", dag: false, shape: false, attributes: curveAttributes },
  animCurveTU: { base: "animCurve", dag: false, shape: false, attributes: curveAttributes },
};

/** Node types that cannot be created directly (abstract in Maya). */
const abstractTypes = new Set(["dependNode", "dagNode", "shape", "light", "animCurve"]);

/** The simulated node types `createNode` accepts, sorted. */
export function creatableNodeTypes(): string[] {
  return Object.keys(types)
    .filter((type) => !abstractTypes.has(type))
    .sort();
}

/** Information about a node type, or `undefined` when the simulation does not know it. */
export function nodeTypeInfo(type: string): NodeTypeInfo | undefined {
  const entry = types[type];
  if (!entry) return undefined;
  const inherited: string[] = [];
  for (let current: string | null = type; current; current = types[current]?.base ?? null) {
    inherited.unshift(current);
  }
  return { inherited, dag: entry.dag, shape: entry.shape, attributes: entry.attributes };
}

/** True when `type` is `base` or derives from it (`ls -type` matches derived types too). */
export function isTypeOf(type: string, base: string): boolean {
  return nodeTypeInfo(type)?.inherited.includes(base) ?? false;
}

/**
 * An empty attribute table. It has no prototype: attribute names come from scripts, and on a
 * plain object `__proto__` or `constructor` would reach the host's `Object.prototype`.
 */
export function attributeTable(
  entries?: Record<string, AttributeData>,
): Record<string, AttributeData> {
  const table = Object.create(null) as Record<string, AttributeData>;
  if (entries)
    for (const name of Object.keys(entries)) table[name] = entries[name] as AttributeData;
  return table;
}

/** Fresh attribute records for a node of `type`, compound children included. */
export function defaultAttributes(type: string): Record<string, AttributeData> {
  const info = nodeTypeInfo(type);
  const attributes = attributeTable();
  for (const template of info?.attributes ?? []) {
    const keyable = template.keyable ?? false;
    if (template.children) {
      const values = template.value as number[];
      attributes[template.long] = {
        shortName: template.short,
        type: template.type,
        value: null,
        children: template.children.map(([long]) => long),
        keyable: false,
        locked: false,
        dynamic: false,
      };
      template.children.forEach(([long, short], index) => {
        attributes[long] = {
          shortName: short,
          type: template.type === "float3" ? "float" : "double",
          value: values[index] ?? 0,
          parent: template.long,
          keyable,
          locked: false,
          dynamic: false,
        };
      });
    } else {
      const attribute: AttributeData = {
        shortName: template.short,
        type: template.type,
        value: template.value as ScalarValue,
        keyable,
        locked: false,
        dynamic: false,
      };
      if (template.enumNames) attribute.enumNames = template.enumNames;
      attributes[template.long] = attribute;
    }
  }
  return attributes;
}
