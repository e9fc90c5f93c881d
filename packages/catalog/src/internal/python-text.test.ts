import { describe, expect, it } from "vitest";
import { pythonSplitLines, pythonStrip } from "./python-text.ts";

describe("Python text helpers", () => {
  it("strip removes what Python's str.strip removes, and keeps U+FEFF", () => {
    expect(pythonStrip("\x1c\x1d\x1e\x1f\x85 \t a b \u3000\u2029")).toBe("a b");
    expect(pythonStrip("\ufeffa\ufeff")).toBe("\ufeffa\ufeff");
  });

  it("splitlines breaks on every Python line boundary, with no trailing empty line", () => {
    expect(pythonSplitLines("a\r\nb\rc\nd\ve\ff\x1cg\x1dh\x1ei\x85j\u2028k\u2029l\n")).toEqual(
      "abcdefghijkl".split(""),
    );
    expect(pythonSplitLines("")).toEqual([]);
    expect(pythonSplitLines("\n\n")).toEqual(["", ""]);
    expect(pythonSplitLines("a\x1fb")).toEqual(["a\x1fb"]);
  });
});
