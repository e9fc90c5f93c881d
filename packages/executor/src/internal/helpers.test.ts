import { transform } from "sucrase";
import { describe, expect, it } from "vitest";
import { closestNames } from "./closest-names.ts";
import { stripCodeFences, stripTypes, wrapScript } from "./prepare-script.ts";
import { pythonRepr } from "./python-repr.ts";

describe("pythonRepr", () => {
  it.each([
    ["create sphere", "'create sphere'"],
    ["it's nothing", `"it's nothing"`],
    [`say "hi"`, `'say "hi"'`],
    [`it's "both"`, `'it\\'s "both"'`],
    ["back\\slash", "'back\\\\slash'"],
    ["tab\there\nnew", "'tab\\there\\nnew'"],
    ["\u0000\u007f\u00a0é", "'\\x00\\x7f\\xa0é'"],
    ["\u200b\u2028", "'\\u200b\\u2028'"],
    ["", "''"],
  ])("repr(%j) is %s", (input, expected) => {
    expect(pythonRepr(input)).toBe(expected);
  });
});

describe("closestNames", () => {
  const names = ["polySphere", "polyCube", "polyCylinder", "move", "setAttr", "getAttr"];
  it("ranks small edit distances first, case-insensitively", () => {
    expect(closestNames("polysphere", names)[0]).toBe("polySphere");
    expect(closestNames("mvoe", names)).toEqual(["move"]);
    expect(closestNames("setAtr", names)[0]).toBe("setAttr");
  });
  it("finds shared prefixes and containment, and nothing for unrelated names", () => {
    expect(closestNames("polyCubeThing", names)).toContain("polyCube");
    expect(closestNames("zzzzzz", names)).toEqual([]);
    expect(closestNames("poly", names, 2)).toHaveLength(2);
  });
});

describe("prepare-script", () => {
  it("blanks Markdown fences but keeps the lines", () => {
    expect(stripCodeFences("```js\nreturn 1\n```")).toBe("\nreturn 1\n");
    expect(stripCodeFences("\n```typescript\nreturn 1\n```\n\n")).toBe("\n\nreturn 1\n\n\n");
    expect(stripCodeFences("return `x`")).toBe("return `x`");
    expect(stripCodeFences("```js\nreturn 1")).toBe("```js\nreturn 1");
  });

  it("wraps the body so its first line is line 1 and a trailing comment is harmless", () => {
    expect(wrapScript("return 1 // done")).toBe("(async () => {return 1 // done\n})()");
    expect(() => wrapScript("", { name: "main(); evil", paramsJson: "{}" })).toThrow(TypeError);
  });

  it("strips types with sucrase without moving any line", () => {
    const source = wrapScript(
      "interface A {\n  a: number;\n}\nconst x: A = { a: 1 };\nenum_like: for (const k of [1]) {}\nreturn x as A;",
    );
    const stripped = stripTypes(source);
    expect(stripped.split("\n")).toHaveLength(source.split("\n").length);
    expect(stripped.split("\n")[3]).toBe("const x = { a: 1 };");
    // sucrase itself keeps lines too: the property the error positions rely on.
    const plain = transform("let a: string = 'x';\n\ntype T = string;\nlet b = a as T;", {
      transforms: ["typescript"],
    }).code;
    expect(plain.split("\n")[3]).toBe("let b = a ;");
  });

  it("reports a TypeScript syntax error with its position", () => {
    expect(() => stripTypes(wrapScript("let a = 1;\nlet b: = 2;"))).toThrow(/\(2:\d+\)/);
  });
});
