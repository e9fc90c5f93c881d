import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./json-nesting.ts";

const arrays = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

describe("nestsDeeperThan", () => {
  it("counts arrays and objects alike, the outermost being level 1", () => {
    expect(nestsDeeperThan(arrays(64), 64)).toBe(false);
    expect(nestsDeeperThan(arrays(65), 64)).toBe(true);
    const objects = (depth: number): string =>
      `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
    expect(nestsDeeperThan(objects(3), 2)).toBe(true);
    expect(nestsDeeperThan(objects(2), 2)).toBe(false);
  });

  it("measures the deepest branch, not the number of brackets", () => {
    const wide = JSON.stringify(Array.from({ length: 1000 }, () => [[1], { a: [2] }]));
    expect(nestsDeeperThan(wide, 4)).toBe(false);
    expect(nestsDeeperThan(wide, 3)).toBe(true);
  });

  it("skips strings, escaped quotes and backslashes included", () => {
    for (const text of ["[".repeat(200), '\\"[[[[', '\\\\"', `${'"'.repeat(7)}{{{{`]) {
      const json = JSON.stringify({ text, after: [text] });
      expect(nestsDeeperThan(json, 2)).toBe(false);
      expect(nestsDeeperThan(json, 1)).toBe(true);
    }
  });
});
