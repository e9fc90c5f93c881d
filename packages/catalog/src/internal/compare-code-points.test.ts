import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./compare-code-points.ts";

function reference(left: string, right: string): number {
  const a = Array.from(left, (character) => character.codePointAt(0) as number);
  const b = Array.from(right, (character) => character.codePointAt(0) as number);
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    if (a[index] !== b[index]) return (a[index] as number) - (b[index] as number);
  }
  return a.length - b.length;
}

describe("compareCodePoints", () => {
  it("orders as Python does: upper case, then _, then lower case", () => {
    expect(["b", "B", "a", "_z"].sort(compareCodePoints)).toEqual(["B", "_z", "a", "b"]);
  });

  it("puts astral characters after U+E000..U+FFFF, unlike JS <", () => {
    expect("\u{1F600}" < "\uFF21").toBe(true);
    expect(compareCodePoints("\u{1F600}", "\uFF21")).toBeGreaterThan(0);
  });

  it("agrees in sign with a code-point by code-point comparison", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 6 });
    fc.assert(
      fc.property(text, text, (left, right) => {
        expect(Math.sign(compareCodePoints(left, right))).toBe(Math.sign(reference(left, right)));
      }),
    );
  });
});
