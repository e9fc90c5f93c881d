import { describe, expect, it } from "vitest";
import { stem } from "./stem.ts";

describe("stem", () => {
  it.each([
    ["spheres", "sphere"],
    ["creating", "create"],
    ["created", "create"],
    ["creation", "create"],
    ["rotation", "rotate"],
    ["keys", "key"],
    ["keyed", "key"],
    ["setting", "set"],
    ["vertices", "vertex"],
    ["meshes", "mesh"],
    ["boxes", "box"],
    ["bodies", "body"],
    ["selected", "selection"],
    ["uvs", "uv"],
  ])("maps %s and %s to one stem", (left, right) => {
    expect(stem(left)).toBe(stem(right));
  });

  it("leaves short words and -ss, -us, -is endings alone", () => {
    expect(stem("uv")).toBe("uv");
    expect(stem("pass")).toBe("pass");
    expect(stem("radius")).toBe("radius");
    expect(stem("axis")).toBe("axis");
    expect(stem("string")).toBe("string");
  });
});
