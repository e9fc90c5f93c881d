import { describe, expect, it } from "vitest";
import { instrumentAsync } from "./instrument-async.ts";
import { wrapScript } from "./prepare-script.ts";

const handler = "catch (__dccError) { __dccAsyncError(__dccError); throw __dccError; }";

describe("instrumentAsync", () => {
  it("leaves a script without another async function as it is, wrapper included", () => {
    const wrapped = wrapScript("const x = await 1; return 'async';");
    expect(instrumentAsync(wrapped)).toBe(wrapped);
  });

  it("wraps each async body in a try that reports, keeping every line", () => {
    const wrapped = wrapScript(
      'async function a() { "use strict"; await 1; }\nconst b = async (x) => x + 1;\nconst c = { async m() { return 2 } };\nconst d = async () => ({ v: 1 });\nconst e = async () => async () => 3;',
    );
    const out = instrumentAsync(wrapped);
    expect(out.split("\n")).toHaveLength(wrapped.split("\n").length);
    expect(out).toContain(`async function a() { "use strict"; try { await 1;  } ${handler}}`);
    expect(out).toContain(`async (x) => { try { return (x + 1); } ${handler} }`);
    expect(out).toContain(`async m() { try { return 2  } ${handler}}`);
    expect(out).toContain(`async () => { try { return (({ v: 1 })); } ${handler} }`);
    expect(out).toContain(
      `async () => { try { return (async () => { try { return (3); } ${handler} }); } ${handler} }`,
    );
    expect(out.startsWith("(async () => {async function a()")).toBe(true);
  });

  it("leaves code that does not parse as JavaScript to QuickJS", () => {
    const wrapped = wrapScript("const f = async (x: number) => x;");
    expect(instrumentAsync(wrapped)).toBe(wrapped);
  });
});
