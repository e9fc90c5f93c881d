import { describe, expect, it } from "vitest";
import type { BlenderOperator } from "./blender-operator.ts";
import { blenderOperatorData } from "./blender-operator-data.ts";
import { operatorSignature } from "./operator-signature.ts";

function operator(name: string): BlenderOperator {
  const found = blenderOperatorData().operators.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`${name} is not in the catalog`);
  return found;
}

describe("operatorSignature", () => {
  it("writes every parameter with its type, default, enum values, vector length and range", () => {
    expect(operatorSignature(operator("mesh.primitive_uv_sphere_add"))).toBe(
      "mesh.primitive_uv_sphere_add(args?: { segments?: int = 32 /* 3..100000 */; " +
        "ring_count?: int = 16 /* 3..100000 */; radius?: float = 1 /* >= 0 */; " +
        "calc_uvs?: boolean = true; enter_editmode?: boolean = false; " +
        'align?: "WORLD" | "VIEW" | "CURSOR" = "WORLD"; location?: float[3] = [0, 0, 0]; ' +
        "rotation?: float[3] = [0, 0, 0] /* radians */; scale?: float[3] = [0, 0, 0] }): OperatorReport",
    );
  });

  it("writes float32 defaults in their shortest form and angles as radians", () => {
    const text = operatorSignature(operator("object.shade_smooth"));
    expect(text).toContain("auto_smooth_angle?: float = 0.5235988 /* radians 0..3.1415927 */");
  });

  it("writes an operator without parameters as a bare call", () => {
    expect(operatorSignature(operator("object.join"))).toBe("object.join(): OperatorReport");
  });

  it("writes enum flags as lists and run-time enums as strings", () => {
    const flagged = blenderOperatorData().operators.find((candidate) =>
      candidate.params?.some((param) => param.flag === true && (param.items?.length ?? 0) > 1),
    ) as BlenderOperator;
    const param = flagged.params?.find((p) => p.flag === true) as { name: string };
    expect(operatorSignature(flagged)).toMatch(
      new RegExp(`${param.name}\\?: \\("[A-Z_]+"( \\| "[A-Z_0-9]+")+\\)\\[\\]`),
    );
    expect(operatorSignature(operator("object.constraint_add"))).toContain(
      "type?: string /* values depend on the scene */",
    );
  });

  it("marks required parameters and counts the file browser's settings instead of listing them", () => {
    const text = operatorSignature(operator("wm.save_as_mainfile"));
    expect(text).toContain('filepath?: string = "" /* file path */');
    expect(text).not.toContain("filter_blender");
    expect(text).toMatch(
      /copy\?: boolean = false \/\* \+21 file browser settings \*\/ \}\): OperatorReport$/,
    );
    // No operator of Blender 3.4.1 has a required property; the format is checked on a made-up one.
    const made: BlenderOperator = {
      name: "test.required",
      label: "Required",
      params: [{ name: "target", type: "string", required: true }],
    };
    expect(operatorSignature(made)).toBe("test.required(args: { target: string }): OperatorReport");
  });

  it("keeps commas and semicolons out of comments, so only parameter names are read as words", () => {
    for (const candidate of blenderOperatorData().operators) {
      for (const comment of operatorSignature(candidate).match(/\/\*.*?\*\//g) ?? []) {
        expect(comment, candidate.name).not.toMatch(/[,;]/);
      }
    }
  });
});
