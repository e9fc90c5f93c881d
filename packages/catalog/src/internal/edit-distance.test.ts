import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance } from "./edit-distance.ts";

// Plain optimal string alignment distance, for comparison.
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

describe("boundedEditDistance", () => {
  it("counts substitutions, insertions, deletions and transpositions", () => {
    expect(boundedEditDistance("sphere", "shpere", 2)).toBe(1);
    expect(boundedEditDistance("sphere", "spere", 2)).toBe(1);
    expect(boundedEditDistance("sphere", "sphere", 2)).toBe(0);
    expect(boundedEditDistance("sphere", "cube", 2)).toBe(3);
  });

  it("equals the full distance up to the bound, and bound + 1 beyond it", () => {
    const word = fc.stringMatching(/^[a-e]{0,9}$/);
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const full = reference(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(full <= max ? full : max + 1);
      }),
    );
  });
});
