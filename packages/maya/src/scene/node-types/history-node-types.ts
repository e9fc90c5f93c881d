// Construction history nodes of the poly* primitives: the parameters the primitive was made with.
import {
  type AttributeTemplate,
  type NodeTypeEntry,
  scalar,
  vector,
} from "./attribute-template.ts";

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

/** A history node type: its own parameters, then the axis and the output every one has. */
const history = (parameters: AttributeTemplate[]): NodeTypeEntry => ({
  base: "dependNode",
  attributes: [...parameters, axis, scalar("output", "out", "message", null)],
});

/** `polySphere`, `polyCube`, `polyCylinder`, `polyPlane`, `polyCone`, `polyTorus`. */
export const historyNodeTypes: Record<string, NodeTypeEntry> = {
  polySphere: history([
    scalar("radius", "r", "double", 1, true),
    scalar("subdivisionsAxis", "sa", "long", 20, true),
    scalar("subdivisionsHeight", "sh", "long", 20, true),
  ]),
  polyCube: history([
    scalar("width", "w", "double", 1, true),
    scalar("height", "h", "double", 1, true),
    scalar("depth", "d", "double", 1, true),
    scalar("subdivisionsWidth", "sw", "long", 1, true),
    scalar("subdivisionsHeight", "sh", "long", 1, true),
    scalar("subdivisionsDepth", "sd", "long", 1, true),
  ]),
  polyCylinder: history([
    scalar("radius", "r", "double", 1, true),
    scalar("height", "h", "double", 2, true),
    scalar("subdivisionsAxis", "sa", "long", 20, true),
    scalar("subdivisionsHeight", "sh", "long", 1, true),
    scalar("subdivisionsCaps", "sc", "long", 0, true),
  ]),
  polyPlane: history([
    scalar("width", "w", "double", 1, true),
    scalar("height", "h", "double", 1, true),
    scalar("subdivisionsWidth", "sw", "long", 10, true),
    scalar("subdivisionsHeight", "sh", "long", 10, true),
  ]),
  polyCone: history([
    scalar("radius", "r", "double", 1, true),
    scalar("height", "h", "double", 2, true),
    scalar("subdivisionsAxis", "sa", "long", 20, true),
    scalar("subdivisionsHeight", "sh", "long", 1, true),
    scalar("subdivisionsCap", "sc", "long", 0, true),
  ]),
  polyTorus: history([
    scalar("radius", "r", "double", 1, true),
    scalar("sectionRadius", "sr", "double", 0.5, true),
    scalar("twist", "tw", "double", 0, true),
    scalar("subdivisionsAxis", "sa", "long", 20, true),
    scalar("subdivisionsHeight", "sh", "long", 20, true),
  ]),
};
