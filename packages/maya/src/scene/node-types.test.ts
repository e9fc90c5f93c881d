import { describe, expect, it } from "vitest";
import { defaultAttributes } from "./attribute-table.ts";
import { creatableNodeTypes, isTypeOf, nodeTypeInfo } from "./node-types.ts";

describe("node types", () => {
  it("derive the inheritance chain, DAG and shape from the base types", () => {
    expect(nodeTypeInfo("spotLight")).toMatchObject({
      inherited: ["dependNode", "dagNode", "shape", "light", "spotLight"],
      dag: true,
      shape: true,
    });
    expect(nodeTypeInfo("transform")).toMatchObject({ dag: true, shape: false });
    expect(nodeTypeInfo("mesh")).toMatchObject({ dag: true, shape: true });
    expect(nodeTypeInfo("polySphere")).toMatchObject({
      inherited: ["dependNode", "polySphere"],
      dag: false,
      shape: false,
    });
    expect(nodeTypeInfo("shadingEngine")?.inherited).toEqual([
      "dependNode",
      "objectSet",
      "shadingEngine",
    ]);
    expect(nodeTypeInfo("notAType")).toBeUndefined();
    expect(isTypeOf("blinn", "lambert")).toBe(true);
    expect(isTypeOf("lambert", "blinn")).toBe(false);
  });

  it("leave Maya's abstract types out of what createNode accepts", () => {
    const creatable = creatableNodeTypes();
    for (const abstract of ["dependNode", "dagNode", "shape", "light", "animCurve"]) {
      expect(creatable).not.toContain(abstract);
    }
    expect(creatable).toContain("transform");
    expect(creatable).toContain("objectSet");
    expect(creatable).toEqual([...creatable].sort());
  });

  it("give every history node its parameters, axis and output", () => {
    const attributes = defaultAttributes("polyCube");
    expect(attributes["width"]).toMatchObject({ value: 1, keyable: true, shortName: "w" });
    expect(attributes["axis"]).toMatchObject({ children: ["axisX", "axisY", "axisZ"] });
    expect(attributes["axisY"]).toMatchObject({ value: 1, parent: "axis" });
    expect(attributes["output"]).toMatchObject({ type: "message", value: null });
    expect(Object.getPrototypeOf(attributes)).toBeNull();
  });
});
