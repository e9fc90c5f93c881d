// Sets, shading groups, materials and textures.
import { color, type NodeTypeEntry, rgb, scalar, vector } from "./attribute-template.ts";

const outColor = vector("outColor", "oc", [0, 0, 0], rgb("outColor", "oc"));
const lambertAttributes = [
  color("color", "c", [0.5, 0.5, 0.5]),
  color("transparency", "it", [0, 0, 0]),
  color("ambientColor", "ambc", [0, 0, 0]),
  color("incandescence", "ic", [0, 0, 0]),
  scalar("diffuse", "dc", "double", 0.8, true),
  outColor,
];
const standardSurfaceAttributes = [
  scalar("base", "b", "double", 1, true),
  color("baseColor", "bc", [0.8, 0.8, 0.8]),
  scalar("metalness", "m", "double", 0, true),
  scalar("specular", "s", "double", 1, true),
  scalar("specularRoughness", "sr", "double", 0.2, true),
  scalar("emission", "e", "double", 0, true),
  outColor,
];

/** `objectSet`, `shadingEngine`, the materials and the textures. */
export const shadingNodeTypes: Record<string, NodeTypeEntry> = {
  objectSet: { base: "dependNode", attributes: [] },
  shadingEngine: {
    base: "objectSet",
    attributes: [
      scalar("surfaceShader", "ss", "message", null),
      scalar("volumeShader", "vs", "message", null),
      scalar("displacementShader", "ds", "message", null),
    ],
  },
  lambert: { base: "dependNode", attributes: lambertAttributes },
  blinn: {
    base: "lambert",
    attributes: [
      ...lambertAttributes,
      color("specularColor", "sc", [0.5, 0.5, 0.5]),
      scalar("eccentricity", "ec", "double", 0.3, true),
    ],
  },
  phong: {
    base: "lambert",
    attributes: [
      ...lambertAttributes,
      color("specularColor", "sc", [0.5, 0.5, 0.5]),
      scalar("cosinePower", "cp", "double", 20, true),
    ],
  },
  surfaceShader: { base: "dependNode", attributes: [color("outColor", "oc", [0, 0, 0])] },
  standardSurface: { base: "dependNode", attributes: standardSurfaceAttributes },
  aiStandardSurface: { base: "dependNode", attributes: standardSurfaceAttributes },
  file: {
    base: "dependNode",
    attributes: [
      scalar("fileTextureName", "ftn", "string", ""),
      outColor,
      scalar("outAlpha", "oa", "double", 0),
    ],
  },
  checker: {
    base: "dependNode",
    attributes: [color("color1", "c1", [1, 1, 1]), color("color2", "c2", [0, 0, 0]), outColor],
  },
  ramp: { base: "dependNode", attributes: [outColor] },
  place2dTexture: {
    base: "dependNode",
    attributes: [
      scalar("repeatU", "reu", "double", 1, true),
      scalar("repeatV", "rev", "double", 1, true),
      scalar("rotateUV", "ro", "double", 0, true),
    ],
  },
};
