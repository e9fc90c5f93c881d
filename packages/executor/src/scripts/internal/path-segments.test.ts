import { describe, expect, it } from "vitest";
import { normalizeSuffix, sanitizeSegment } from "./path-segments.ts";

describe("sanitizeSegment", () => {
  it("matches upstream on traversal and separators", () => {
    expect(sanitizeSegment("maya/../../prod")).toBe("maya_.._.._prod");
    expect(sanitizeSegment("a\\b:c")).toBe("a_b_c");
    expect(sanitizeSegment("C:\\Users\\x")).toBe("C__Users_x");
  });

  it("falls back to unknown when nothing safe is left", () => {
    expect(sanitizeSegment("...")).toBe("unknown");
    expect(sanitizeSegment("..")).toBe("unknown");
    expect(sanitizeSegment("")).toBe("unknown");
    expect(sanitizeSegment(undefined)).toBe("unknown");
    expect(sanitizeSegment("   ")).toBe("unknown");
    expect(sanitizeSegment("-_.", "reuse")).toBe("reuse");
  });

  it("collapses runs of unsafe characters and trims ._- from the ends", () => {
    expect(sanitizeSegment("  task 42!! ")).toBe("task_42");
    expect(sanitizeSegment("..hidden")).toBe("hidden");
    expect(sanitizeSegment("café-scène")).toBe("caf_-sc_ne");
    expect(sanitizeSegment("maya-local")).toBe("maya-local");
  });

  it("caps a segment at 96 characters", () => {
    expect(sanitizeSegment("a".repeat(200))).toHaveLength(96);
  });
});

describe("normalizeSuffix", () => {
  it("matches upstream on traversal", () => {
    expect(normalizeSuffix("../ps1")).toBe("._ps1");
  });

  it("adds one leading dot and keeps safe suffixes", () => {
    expect(normalizeSuffix("ts")).toBe(".ts");
    expect(normalizeSuffix(".js")).toBe(".js");
    expect(normalizeSuffix("...mjs")).toBe(".mjs");
  });

  it("defaults when empty and falls back to .txt when only dots remain", () => {
    expect(normalizeSuffix(undefined)).toBe(".ts");
    expect(normalizeSuffix("")).toBe(".ts");
    expect(normalizeSuffix(".")).toBe(".txt");
  });
});
