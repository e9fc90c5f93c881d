import { describe, expect, it } from "vitest";
import type { BlenderArea, BlenderMode, BlenderOperator } from "./blender-operator.ts";
import { blenderOperatorData } from "./blender-operator-data.ts";
import { operatorContextHint } from "./operator-context-hint.ts";

function made(modes?: BlenderMode[], areas?: BlenderArea[]): BlenderOperator {
  return {
    name: "test.operator",
    label: "Test",
    ...(modes === undefined ? {} : { modes }),
    ...(areas === undefined ? {} : { areas }),
  };
}

describe("operatorContextHint", () => {
  it("says nothing of an operator whose poll() passed everywhere", () => {
    expect(operatorContextHint(made())).toBeUndefined();
  });

  it("names the modes it runs in, or those it does not when that list is shorter", () => {
    expect(operatorContextHint(made(["EDIT_MESH"]))).toBe("only in Edit Mode (mesh)");
    expect(operatorContextHint(made(["OBJECT", "POSE"]))).toBe("only in Object Mode or Pose Mode");
    expect(operatorContextHint(made(["EDIT_MESH", "EDIT_CURVE", "EDIT_LATTICE"]))).toBe(
      "only in Edit Mode (mesh, curve, lattice)",
    );
    const editModes = ["EDIT_MESH", "EDIT_CURVE", "EDIT_TEXT", "EDIT_LATTICE", "EDIT_METABALL"];
    const allButEdit = blenderOperatorData().modes.filter(
      (mode) => ![...editModes, "EDIT_ARMATURE"].includes(mode),
    );
    expect(operatorContextHint(made([...allButEdit]))).toBe("not in any Edit Mode");
  });

  it("folds a whole family of modes into one phrase", () => {
    expect(
      operatorContextHint(
        made(["EDIT_GPENCIL", "PAINT_GPENCIL", "SCULPT_GPENCIL", "WEIGHT_GPENCIL", "OBJECT"]),
      ),
    ).toBe("only in Object Mode or any Grease Pencil mode");
    expect(operatorContextHint(made(["PAINT_VERTEX", "PAINT_WEIGHT", "PAINT_TEXTURE"]))).toBe(
      "only in any Paint mode",
    );
  });

  it("names the editor an operator needs, or says any editor will do", () => {
    expect(operatorContextHint(made(undefined, ["VIEW_3D"]))).toBe(
      "needs the 3D Viewport area, which dispatch provides (a 3D Viewport)",
    );
    expect(operatorContextHint(made(["EDIT_MESH"], ["IMAGE_EDITOR", "UV_EDITOR"]))).toBe(
      "only in Edit Mode (mesh); needs the Image Editor or UV Editor area",
    );
    const every = [...blenderOperatorData().areas];
    expect(operatorContextHint(made(undefined, every))).toBe(
      "needs an editor area (any), which dispatch provides (a 3D Viewport)",
    );
  });

  it("says so when poll() passed in no tested context", () => {
    expect(operatorContextHint(made([]))).toMatch(/^poll\(\) failed in every tested context/);
  });

  it("gives the hints the generated data implies for well-known operators", () => {
    const hint = (name: string): string | undefined => {
      const found = blenderOperatorData().operators.find((candidate) => candidate.name === name);
      return found === undefined ? "missing" : operatorContextHint(found);
    };
    expect(hint("mesh.primitive_uv_sphere_add")).toBeUndefined();
    expect(hint("mesh.bevel")).toBe("only in Edit Mode (mesh)");
    expect(hint("view3d.view_all")).toBe(
      "needs the 3D Viewport area, which dispatch provides (a 3D Viewport)",
    );
    expect(hint("sculpt.brush_stroke")).toBe(
      "only in Sculpt Mode; needs the 3D Viewport area, which dispatch provides (a 3D Viewport)",
    );
    expect(hint("object.shade_smooth")).toBe("not in any Edit Mode or Sculpt Mode");
    expect(hint("uv.unwrap")).toBe("only in Edit Mode (mesh)");
    expect(hint("node.add_node")).toBe("needs the Node Editor area");
    expect(hint("anim.keyframe_insert")).toBe(
      "needs an editor area (any), which dispatch provides (a 3D Viewport)",
    );
  });
});
