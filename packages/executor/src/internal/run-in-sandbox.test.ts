import DEBUG_SYNC from "@jitl/quickjs-wasmfile-debug-sync";
import RELEASE_SYNC from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
  TestQuickJSWASMModule,
} from "quickjs-emscripten-core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runInSandbox, type SandboxHost, type StopReason } from "./run-in-sandbox.ts";
import type { RunLimits, RunOutcome } from "./sandbox-types.ts";

const limits: RunLimits = {
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxOutputChars: 10_000,
  maxDispatchCalls: 5,
  maxLogEntries: 3,
  maxLogChars: 100,
  maxArgsChars: 1_000_000,
  maxArgsDepth: 64,
};

function variantOf(imported: unknown): QuickJSSyncVariant {
  return ((imported as { default?: QuickJSSyncVariant }).default ?? imported) as QuickJSSyncVariant;
}

let module: QuickJSWASMModule;
beforeAll(async () => {
  module = await newQuickJSWASMModuleFromVariant(variantOf(RELEASE_SYNC));
});

function host(overrides: Partial<SandboxHost> = {}): SandboxHost {
  return {
    checkStop: () => null,
    dispatch: (name, args) => JSON.stringify({ ok: true, value: { name, args: JSON.parse(args) } }),
    ...overrides,
  };
}

function run(
  code: string,
  overrides: Partial<SandboxHost> = {},
  more: Partial<RunLimits> = {},
): RunOutcome {
  return runInSandbox(module, { code, limits: { ...limits, ...more } }, host(overrides));
}

function output(outcome: RunOutcome): unknown {
  if (outcome.status !== "ok")
    throw new Error(`expected ok, got ${outcome.errorCode}: ${outcome.error}`);
  return JSON.parse(outcome.outputJson);
}

describe("runInSandbox", () => {
  it("returns the top-level return value, null without one", () => {
    expect(output(run("return 1 + 1"))).toBe(2);
    expect(output(run("1 + 1"))).toBe(null);
    expect(output(run("const x = await Promise.resolve(5); return x * 2"))).toBe(10);
  });

  it("dispatch returns the host's value synchronously", () => {
    expect(output(run('return dispatch("ls", { type: "mesh" })'))).toEqual({
      name: "ls",
      args: { type: "mesh" },
    });
    expect(output(run('return await dispatch("ls")'))).toEqual({ name: "ls", args: null });
  });

  it("turns a failed command into a catchable error with command, code and message", () => {
    const failing = host({
      dispatch: () =>
        JSON.stringify({ ok: false, error: { command: "ls", code: "NO_OBJECT", message: "nope" } }),
    });
    expect(
      output(
        run(
          'try { dispatch("ls") } catch (e) { return [e.name, e.command, e.code, e.message] }',
          failing,
        ),
      ),
    ).toEqual(["CommandError", "ls", "NO_OBJECT", "nope"]);
    const uncaught = run('dispatch("ls")', failing);
    expect(uncaught).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
  });

  it("limits dispatch calls", () => {
    const outcome = run(
      'for (let i = 0; i < 10; i++) { try { dispatch("x") } catch {} } return "done"',
    );
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "dispatchCalls",
    });
    expect(outcome.dispatchCalls).toBe(5);
  });

  it("reports script errors with the agent's line numbers", () => {
    const outcome = run("const a = 1;\nconst b = null;\nreturn b.x;");
    expect(outcome).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
    if (outcome.status === "error") {
      expect(outcome.error).toContain("TypeError");
      expect(outcome.error).toContain("script.ts:3");
    }
  });

  it("accepts TypeScript and keeps line numbers", () => {
    const outcome = run(
      "interface P { x: number }\nconst p: P = { x: 1 };\nfunction f<T>(v: T): T { return v }\nthrow new Error('at four ' + f<number>(p.x));",
    );
    expect(outcome.status).toBe("error");
    if (outcome.status === "error")
      expect(outcome.error).toMatch(/Error: at four 1[\s\S]*script\.ts:4/);
    expect(output(run("const n: number = 2;\nreturn n as number;"))).toBe(2);
  });

  it("reports syntax errors", () => {
    const outcome = run("const a = 1;\nlet = ;");
    expect(outcome).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
    if (outcome.status === "error") expect(outcome.error).toMatch(/SyntaxError[\s\S]*script\.ts:2/);
  });

  it("makes output JSON: BigInt to string, undefined to null", () => {
    expect(output(run("return { n: 10n, list: [1n, undefined], u: undefined }"))).toEqual({
      n: "10",
      list: ["1", null],
      u: null,
    });
    expect(output(run("return undefined"))).toBe(null);
    expect(output(run("return new Date(0)"))).toBe("1970-01-01T00:00:00.000Z");
  });

  it("names the path of functions, symbols and cycles in the output", () => {
    const fn = run("return { a: { b: [1, () => 2] } }");
    expect(fn).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
    if (fn.status === "error") expect(fn.error).toContain("a function at output.a.b[1]");
    const symbol = run('return { "odd key": Symbol("s") }');
    if (symbol.status === "error") expect(symbol.error).toContain('a symbol at output["odd key"]');
    else throw new Error("expected an error");
    const cycle = run("const a = { list: [] }; a.list.push(a); return a");
    if (cycle.status === "error") expect(cycle.error).toContain("a cycle at output.list[0]");
    else throw new Error("expected an error");
    // Shared (non-cyclic) references are fine.
    expect(output(run("const s = { v: 1 }; return [s, s]"))).toEqual([{ v: 1 }, { v: 1 }]);
  });

  it("keeps __proto__ keys as plain data", () => {
    expect(output(run('return JSON.parse(\'{"__proto__": {"polluted": true}}\')'))).toEqual(
      JSON.parse('{"__proto__": {"polluted": true}}'),
    );
  });

  it("cuts too large an output to the limit, reporting the cut apart from the text", () => {
    const outcome = run('return ["x".repeat(20000)]');
    expect(outcome).toMatchObject({ status: "ok" });
    if (outcome.status !== "ok") return;
    expect(outcome.outputJson).toBe(JSON.stringify([`${"x".repeat(4000)}… [16000 more chars]`]));
    expect(JSON.parse(outcome.truncationJson ?? "null")).toEqual({
      limitChars: 10_000,
      keptChars: outcome.outputJson.length,
      // Twice the limit: known to be over it without being measured.
      itemsLeftOut: 0,
      keysLeftOut: 0,
      stringsShortened: 1,
      charsLeftOut: 16_000,
      valuesSummarised: 0,
    });
  });

  it("stops at the memory limit", () => {
    const outcome = run(
      "const a = []; while (true) a.push([a.length, a.length + 1, 3, 4, 5, 6, 7, 8]);",
    );
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "memory",
    });
  });

  it("stops deep recursion at the stack limit", () => {
    const outcome = run("function f(n) { return f(n + 1) + 1 } return f(0)");
    expect(outcome).toMatchObject({ status: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack" });
    expect(outcome.poisoned).toBe(false);
  });

  it("stops a busy loop when the host says so", () => {
    let polls = 0;
    const stopAfter = (reason: StopReason) => () => (++polls > 3 ? reason : null);
    expect(run("while (true) {}", { checkStop: stopAfter("timeout") })).toMatchObject({
      errorCode: "TIMEOUT",
    });
    polls = 0;
    expect(
      run("for (;;) { try { while (true) {} } catch {} }", { checkStop: stopAfter("cancelled") }),
    ).toMatchObject({
      errorCode: "CANCELLED",
    });
  });

  // Reading what a script threw runs its getters and proxy traps; a deadline that passes there is
  // still the deadline, whatever the read returned.
  it.each([
    ["a proxy whose traps spin", "throw new Proxy({}, { get() { for (;;) {} } })"],
    [
      "an error whose message getter spins",
      'const e = new Error("m"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e',
    ],
    ["the same after an await", "await null; throw new Proxy({}, { get() { for (;;) {} } })"],
    [
      "the same thrown in a promise job",
      "Promise.resolve().then(() => { throw new Proxy({}, { get() { for (;;) {} } }) }); await new Promise(() => {})",
    ],
  ])("reports a timeout while the thrown value is read: %s", (_name, code) => {
    expect(run(code, { checkStop: () => "timeout" })).toMatchObject({
      status: "error",
      errorCode: "TIMEOUT",
      limit: "timeout",
      poisoned: false,
    });
  });

  it("treats a dispatch interrupted by a stop as the stop, even if the script catches it", () => {
    const outcome = run('try { dispatch("slow") } catch {} return "ignored"', {
      dispatch: () => null,
      checkStop: () => null,
    });
    expect(outcome).toMatchObject({ status: "error", errorCode: "CANCELLED" });
  });

  it("captures logs, capped by count and characters, with a truncation marker", () => {
    const seen: string[] = [];
    const outcome = run(
      'console.log("a", 1, { b: 2n }); console.info("x".repeat(10)); console.warn(new TypeError("t")); console.error("e"); console.log("f"); return 0',
      { log: (entry) => seen.push(entry.message) },
    );
    expect(outcome.logs).toEqual([
      { level: "log", message: 'a 1 {"b":"2"}' },
      { level: "info", message: "xxxxxxxxxx" },
      { level: "warn", message: "TypeError: t" },
      {
        level: "warn",
        message: "[2 more log entries dropped: log limit of 3 entries or 100 characters reached]",
      },
    ]);
    expect(seen).toHaveLength(3);
    const long = run('console.log("y".repeat(500)); return 0');
    expect(long.logs[0]?.message).toHaveLength(100);
  });

  it("reports progress", () => {
    const updates: unknown[] = [];
    run('progress(1, 10, "one"); progress(2); progress("bad")', {
      progress: (u) => updates.push(u),
    });
    expect(updates).toEqual([{ progress: 1, total: 10, message: "one" }, { progress: 2 }]);
  });

  it("reports a promise that can never settle instead of waiting", () => {
    const outcome = run("await new Promise(() => {})");
    expect(outcome).toMatchObject({ errorCode: "SCRIPT_ERROR" });
    if (outcome.status === "error") expect(outcome.error).toContain("can never settle");
  });

  // A limit reached in a promise callback becomes a rejection nobody reads; the script is then
  // left waiting on nothing, and that limit, not a deadlock, is what ended it.
  it.each([
    ["a nesting promise chain", "const spin = () => Promise.resolve().then(spin); spin();"],
    [
      "memory kept by promise jobs",
      "const a = []; const grow = () => Promise.resolve().then(() => { a.push([a.length, 1, 2, 3]); grow(); }); grow();",
    ],
    [
      "a dispatch argument built in a promise job",
      'Promise.resolve().then(() => dispatch("x", { get a() { const b = []; for (;;) b.push([b.length]); } }));',
    ],
    [
      "a large allocation in a promise job",
      "Promise.resolve().then(() => new Array(1e8).fill(0));",
    ],
  ])("names the memory limit reached by %s", (_name, code) => {
    const outcome = run(
      `${code} await new Promise(() => {});`,
      {},
      { memoryBytes: 2 * 1024 * 1024 },
    );
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "memory",
    });
    if (outcome.status === "error") expect(outcome.error).toContain("memory limit of 2 MiB");
  });

  it.each([
    [
      "an async function nobody awaits",
      "async function fill() { await null; const b = []; for (;;) b.push([b.length]); } fill();",
    ],
    [
      "an async arrow nobody awaits, before its first await",
      "const fill = async () => { const b = []; for (;;) b.push([b.length]); }; fill();",
    ],
    [
      "an async method nobody awaits",
      "const o = { async fill() { await null; const b = []; for (;;) b.push([b.length]); } }; o.fill();",
    ],
  ])("names the memory limit reached by %s", (_name, code) => {
    const outcome = run(
      `${code} await new Promise(() => {});`,
      {},
      { memoryBytes: 2 * 1024 * 1024 },
    );
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "memory",
    });
  });

  it("names the stack limit reached in an async function nobody awaits", () => {
    const outcome = run(
      "async function deep(n) { await null; return (function f() { return f() + 1 })(); } deep(); await new Promise(() => {});",
    );
    expect(outcome).toMatchObject({ status: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack" });
  });

  it("keeps async functions' results, errors and line numbers", () => {
    const outcome = run(
      'async function twice(x) { "use strict"; return x * 2 }\nconst later = async () => ({ v: await twice(2) });\nreturn [await twice(1), await later(), await (async () => { try { await Promise.reject(new Error("r")) } catch (e) { return e.message } })()];',
    );
    expect(output(outcome)).toEqual([2, { v: 4 }, "r"]);
    const failed = run(
      "const f = async () => {\n  await null;\n  throw new TypeError('late');\n};\nawait f();",
    );
    expect(failed).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
    if (failed.status === "error") expect(failed.error).toMatch(/TypeError: late\n.*script\.ts:3/);
  });

  it("names the memory limit reached by an awaited async function", () => {
    const outcome = run(
      "async function fill() { await null; const b = []; for (;;) b.push([b.length]); } await fill();",
      {},
      { memoryBytes: 2 * 1024 * 1024 },
    );
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "memory",
    });
  });

  it("names the stack limit reached in a promise job", () => {
    const outcome = run(
      "Promise.resolve().then(function f() { return f() + 1 }); await new Promise(() => {});",
    );
    expect(outcome).toMatchObject({ status: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack" });
  });

  it("leaves a limit the script's own promise callback handled to the script", () => {
    const outcome = run(
      "return await Promise.resolve().then(() => new Array(1e8).fill(0)).catch((error) => error.message);",
      {},
      { memoryBytes: 2 * 1024 * 1024 },
    );
    expect(output(outcome)).toBe("out of memory");
  });

  it("cuts a huge thrown message, name or string in the guest", () => {
    const big = '"x".repeat(5_000_000)';
    for (const code of [
      `throw new Error(${big})`,
      `const e = new Error("m"); e.name = ${big}; throw e`,
      `throw ${big}`,
      `await null; throw new Error(${big})`,
    ]) {
      const outcome = run(code);
      expect(outcome).toMatchObject({ status: "error", errorCode: "SCRIPT_ERROR" });
      if (outcome.status === "error") {
        expect(outcome.error).toContain("… (5000000 characters)");
        expect(outcome.error.length).toBeLessThan(25_000);
      }
    }
  });

  it("keeps then's name, length and callback order", () => {
    const outcome = run(`const order = [];
      const a = Promise.resolve(1).then((v) => order.push("a" + v));
      Promise.reject(2).catch((v) => order.push("b" + v)).finally(() => order.push("c"));
      await a; await null; await null;
      return [Promise.prototype.then.name, Promise.prototype.then.length, order];`);
    expect(output(outcome)).toEqual(["then", 2, ["a1", "b2", "c"]]);
  });

  it("exposes no host capabilities", () => {
    const probe = run(`return {
      process: typeof process, require: typeof require, fetch: typeof fetch,
      setTimeout: typeof setTimeout, WebAssembly: typeof WebAssembly, Atomics: typeof Atomics,
      SharedArrayBuffer: typeof SharedArrayBuffer, importFails: await import("node:fs").then(() => false, () => true),
      functionIsGuest: new Function("return typeof process")(),
    }`);
    expect(output(probe)).toEqual({
      process: "undefined",
      require: "undefined",
      fetch: "undefined",
      setTimeout: "undefined",
      WebAssembly: "undefined",
      Atomics: "undefined",
      SharedArrayBuffer: "undefined",
      importFails: true,
      functionIsGuest: "undefined",
    });
  });

  it("calls an entry point with JSON params", () => {
    const outcome = runInSandbox(
      module,
      {
        code: "function main(p: { a: number }) { return p.a * 2 }",
        limits,
        entry: { name: "main", paramsJson: '{"a":21}' },
      },
      host(),
    );
    expect(output(outcome)).toBe(42);
  });
});

describe("runInSandbox with the debug build", () => {
  let debug: TestQuickJSWASMModule;
  beforeAll(async () => {
    debug = new TestQuickJSWASMModule(await newQuickJSWASMModuleFromVariant(variantOf(DEBUG_SYNC)));
  });
  afterEach(() => {
    // quickjs-emscripten 0.32's test wrapper never drops disposed runtimes from its set, so drop
    // those (and only those); the debug build's leak sanitizer still sees any byte left allocated.
    for (const runtime of debug.runtimes) if (!runtime.alive) debug.runtimes.delete(runtime);
    debug.assertNoMemoryAllocated();
  });

  // One script per exit path of the runner; the debug build is slow, so limits are small.
  const paths: Array<[string, string, Partial<SandboxHost>, Partial<RunLimits>]> = [
    [
      "success with dispatch, logs and progress",
      'console.log(1); progress(1); return dispatch("x", { a: [1n] > 0 })',
      {},
      {},
    ],
    ["thrown error", "throw new Error('x')", {}, {}],
    ["thrown non-error", "throw 42", {}, {}],
    ["syntax error", "let = ;", {}, {}],
    ["TypeScript", "const a: number = 1; return a", {}, {}],
    ["output error", "return () => 1", {}, {}],
    ["output too large", 'return "x".repeat(20000)', {}, {}],
    [
      "out of memory",
      "const keep = new Array(1e6).fill(0); return keep.length",
      {},
      { memoryBytes: 1024 * 1024 },
    ],
    ["stack overflow", "function f() { return f() + 1 } return f()", {}, { stackBytes: 64 * 1024 }],
    ["interrupt", "while (true) {}", { checkStop: () => "timeout" }, {}],
    ["stopped dispatch", 'dispatch("x")', { dispatch: () => null }, {}],
    [
      "failed dispatch",
      'dispatch("x")',
      { dispatch: () => '{"ok":false,"error":{"command":"x","code":"C","message":"m"}}' },
      {},
    ],
    ["never-settling promise", "await new Promise(() => {})", {}, {}],
    [
      "promise callbacks",
      "return await Promise.resolve(1).then((v) => v).catch(() => 0).finally(() => {})",
      {},
      {},
    ],
    ["rejected promise after await", "await null; throw new RangeError('late')", {}, {}],
  ];
  it.each(paths)("frees everything: %s", (_name, code, overrides, more) => {
    const outcome = runInSandbox(debug, { code, limits: { ...limits, ...more } }, host(overrides));
    expect(outcome.poisoned).toBe(false);
  });
});

describe("runInSandbox when the host's own stack runs out first", () => {
  it("names the stack limit and marks the module poisoned", async () => {
    const spare = await newQuickJSWASMModuleFromVariant(variantOf(RELEASE_SYNC));
    // The parser uses the most native stack per byte of QuickJS stack.
    const request = { code: `return ${"(".repeat(30_000)}0${")".repeat(30_000)}`, limits };
    // Leave a few dozen kilobytes of this thread's stack, far less than QuickJS's capped limit
    // needs natively on that path, so V8's limit trips inside QuickJS.
    let outcome: RunOutcome | undefined;
    let deepest = 0;
    const dive = (level: number, target: number): void => {
      deepest = level;
      if (level < target) dive(level + 1, target);
      else outcome = runInSandbox(spare, request, host());
    };
    try {
      dive(0, Number.POSITIVE_INFINITY);
    } catch {
      // `deepest` now counts the frames this thread can hold.
    }
    dive(0, Math.floor(deepest * 0.95));
    expect(outcome).toMatchObject({
      status: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "stack",
      poisoned: true,
    });
  });
});
