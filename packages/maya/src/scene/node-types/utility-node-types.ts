// The root type, utility nodes and animation curves.
import { enumeration, type NodeTypeEntry, scalar, vector, xyz } from "./attribute-template.ts";

const curveAttributes = [scalar("output", "o", "double", 0)];

/** `dependNode`, `multiplyDivide` and the `animCurve` types. */
export const utilityNodeTypes: Record<string, NodeTypeEntry> = {
  dependNode: { base: null, abstract: true, attributes: [] },
  multiplyDivide: {
    base: "dependNode",
    attributes: [
      enumeration("operation", "op", 1, ["No operation", "Multiply", "Divide", "Power"]),
      vector("input1", "i1", [0, 0, 0], xyz("input1", "i1"), true),
      vector("input2", "i2", [1, 1, 1], xyz("input2", "i2"), true),
      vector("output", "o", [0, 0, 0], xyz("output", "o")),
    ],
  },
  animCurve: { base: "dependNode", abstract: true, attributes: curveAttributes },
  animCurveTL: { base: "animCurve", attributes: curveAttributes },
  animCurveTA: { base: "animCurve", attributes: curveAttributes },
  animCurveTU: { base: "animCurve", attributes: curveAttributes },
};
