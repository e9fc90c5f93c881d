import { describe, expect, it } from "vitest";
import { signatureParameters } from "./signature-parameters.ts";

describe("signatureParameters", () => {
  it("reads Python-style signatures without types, defaults or the name", () => {
    expect(
      signatureParameters(
        "polySphere(*args: str, axis: Queryable[Tuple[float, float, float]] = (0, 1, 0), radius: float = 1) -> List[str]",
        "polySphere",
      ),
    ).toEqual(["axis", "radius"]);
  });

  it("reads TypeScript-style signatures with a flags object", () => {
    expect(
      signatureParameters(
        "polySphere(args?: string[], flags?: { name?: string; radius?: number; axis?: [number, number, number] }): string[]",
        "polySphere",
      ),
    ).toEqual(["name", "radius", "axis"]);
  });

  it("reads MEL-style flags and bare parameter lists", () => {
    expect(signatureParameters("move -relative -worldSpace x y z", "move")).toEqual([
      "relative",
      "worldSpace",
      "x",
      "y",
      "z",
    ]);
    expect(signatureParameters("n(radius=1)", "n")).toEqual(["radius"]);
  });
});
