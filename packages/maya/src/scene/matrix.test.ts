import { describe, expect, it } from "vitest";
import { rounded } from "./__fixtures__/scene-harness.ts";
import { compose, decompose, invert, multiply, transformPoint } from "./matrix.ts";

describe("matrix math", () => {
  it("rotates +X towards -Z for +90 degrees about Y, as Maya does", () => {
    expect(transformPoint([1, 0, 0], compose([0, 0, 0], [0, 90, 0], [1, 1, 1]))).toEqual([
      0, 0, -1,
    ]);
  });

  it("round-trips translate, rotate and scale through compose and decompose", () => {
    const parts = { translate: [1, -2, 3], rotate: [10, 20, 30], scale: [2, 3, 4] } as const;
    const matrix = compose([...parts.translate], [...parts.rotate], [...parts.scale]);
    const back = decompose(matrix);
    expect(rounded(back.translate)).toEqual([1, -2, 3]);
    expect(rounded(back.rotate)).toEqual([10, 20, 30]);
    expect(rounded(back.scale)).toEqual([2, 3, 4]);
  });

  it("inverts an affine matrix", () => {
    const matrix = compose([5, 6, 7], [30, 45, 60], [2, 2, 2]);
    expect(rounded(multiply(matrix, invert(matrix)))).toEqual([
      1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]);
  });
});
