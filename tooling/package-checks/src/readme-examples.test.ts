import { describe, expect, it } from "vitest";
import { newestTypeScript, readmeExamples, statedTypeScript } from "./readme-examples.ts";

const readme = [
  "# pkg",
  "```ts run",
  'console.log("a");',
  "```",
  "```ts",
  "excerpt();",
  "```",
  "```js check",
  "await connect();",
  "```",
  "Types: TypeScript 5.4 or later.",
].join("\n");

describe("readmeExamples", () => {
  it("takes the blocks marked run or check, with their line, and leaves excerpts out", () => {
    expect(readmeExamples(readme)).toEqual([
      { language: "ts", mode: "run", code: 'console.log("a");\n', line: 2 },
      { language: "js", mode: "check", code: "await connect();\n", line: 8 },
    ]);
  });

  it("finds none in a README without marks", () => {
    expect(readmeExamples("```ts\nx();\n```\n")).toEqual([]);
  });
});

describe("statedTypeScript", () => {
  it("reads the stated minimum, or undefined", () => {
    expect(statedTypeScript(readme)).toBe("5.4");
    expect(statedTypeScript("Works with TypeScript.")).toBeUndefined();
  });
});

describe("newestTypeScript", () => {
  it("compares major and minor as numbers, and keeps none", () => {
    expect(newestTypeScript(["5.0", "5.10", "5.4"])).toBe("5.10");
    expect(newestTypeScript(["5.4", "none"])).toBe("none");
    expect(newestTypeScript([])).toBe("none");
  });
});
