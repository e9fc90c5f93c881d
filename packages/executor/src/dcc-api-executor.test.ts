import { afterAll, describe, expect, it } from "vitest";
import { dispatcher, executor, failed, pool } from "./__fixtures__/executor-under-test.ts";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import type { ExecuteLogEntry, ExecuteProgress } from "./execute-options.ts";

afterAll(() => pool.close());

describe("DccApiExecutor.execute: the script contract", () => {
  it("returns the top-level return value; no return gives null", async () => {
    expect(await executor.execute("return 1 + 1")).toMatchObject({
      success: true,
      message: "Script executed successfully on maya.",
      output: 2,
      logs: [],
      context: {},
      completion: "complete",
    });
    expect(await executor.execute("1 + 1")).toMatchObject({ success: true, output: null });
    expect(await executor.execute("const v = await Promise.resolve(3); return v")).toMatchObject({
      output: 3,
    });
  });

  it("strips a Markdown fence around the code", async () => {
    const result = await executor.execute("```ts\nconst n: number = 4;\nreturn n;\n```\n");
    expect(result).toMatchObject({ success: true, output: 4 });
  });

  it("accepts TypeScript and reports errors at the agent's line", async () => {
    const result = failed(
      await executor.execute(
        "type Row = { name: string };\nconst rows: Row[] = [];\nconst first = rows[0] as Row;\nreturn first.name;",
      ),
    );
    expect(result).toMatchObject({ errorCode: "SCRIPT_ERROR", message: "Script failed on maya." });
    expect(result.error).toMatch(/^TypeError: cannot read property 'name' of undefined/);
    expect(result.error).toContain("script.ts:4");
  });

  it("reports a syntax error with its line", async () => {
    const result = failed(await executor.execute("const a = 1;\nconst b = ;\nreturn a;"));
    expect(result.errorCode).toBe("SCRIPT_ERROR");
    expect(result.error).toMatch(/SyntaxError[\s\S]*script\.ts:2/);
  });

  it("keeps globals from one execution out of the next", async () => {
    await executor.execute("globalThis.leaked = 1; Object.prototype.polluted = true;");
    expect(await executor.execute("return [typeof leaked, ({}).polluted ?? null]")).toMatchObject({
      output: ["undefined", null],
    });
  });

  it("offers no host capabilities", async () => {
    const result = await executor.execute(`return {
      process: typeof process, require: typeof require, fetch: typeof fetch,
      setTimeout: typeof setTimeout, WebAssembly: typeof WebAssembly,
      imported: await import("node:fs").then(() => "loaded", (e) => e.name),
      viaFunction: new Function("return typeof process")(),
      dispatchSource: typeof dispatch,
    }`);
    expect(result).toMatchObject({
      success: true,
      output: {
        process: "undefined",
        require: "undefined",
        fetch: "undefined",
        setTimeout: "undefined",
        WebAssembly: "undefined",
        imported: expect.any(String),
        viaFunction: "undefined",
        dispatchSource: "function",
      },
    });
    expect((result as unknown as { output: { imported: string } }).output.imported).not.toBe(
      "loaded",
    );
  });

  it("converts BigInt and undefined, and names the path of a function or cycle", async () => {
    expect(
      await executor.execute("return { n: 2n ** 70n, u: undefined, list: [undefined] }"),
    ).toMatchObject({
      output: { n: "1180591620717411303424", u: null, list: [null] },
    });
    const fn = failed(await executor.execute("return { tools: { run() {} } }"));
    expect(fn.error).toContain("a function at output.tools.run");
    const cycle = failed(await executor.execute("const o = {}; o.me = o; return o"));
    expect(cycle.error).toContain("a cycle at output.me");
  });

  it("serializes primitives and objects even after the script replaced eval and JSON", async () => {
    const replace = "globalThis.eval = () => 1; JSON.stringify = () => '{'; Set = null;";
    for (const [value, output] of [
      ["2n", "2"],
      ["NaN", null],
      ['"a\\u0000"', "a\u0000"],
      ["undefined", null],
      ["{ a: [1, { b: new Date(0) }] }", { a: [1, { b: "1970-01-01T00:00:00.000Z" }] }],
    ] as const) {
      const result = await executor.execute(`${replace}\nreturn ${value}`);
      expect(result).toMatchObject({ success: true, output });
    }
  });
});

describe("DccApiExecutor.execute: logs and progress", () => {
  it("captures console output and streams it", async () => {
    const streamed: ExecuteLogEntry[] = [];
    const result = await executor.execute(
      'console.log("a", 1, { b: true }); console.info("i"); console.warn("w"); console.error("e"); return 0',
      { onLog: (entry) => streamed.push(entry) },
    );
    const expected = [
      { level: "log", message: 'a 1 {"b":true}' },
      { level: "info", message: "i" },
      { level: "warn", message: "w" },
      { level: "error", message: "e" },
    ];
    expect(result.logs).toEqual(expected);
    expect(streamed).toEqual(expected);
  });

  it("caps logs and marks the truncation", async () => {
    const small = new DccApiExecutor("maya", {
      pool: executor.pool,
      limits: { maxLogEntries: 2, maxLogChars: 1000 },
    });
    const result = await small.execute("for (let i = 0; i < 10; i++) console.log(i); return 1");
    expect(result.logs).toEqual([
      { level: "log", message: "0" },
      { level: "log", message: "1" },
      { level: "warn", message: expect.stringContaining("8 more log entries dropped") },
    ]);
  });

  it("reports progress", async () => {
    const updates: ExecuteProgress[] = [];
    await executor.execute('progress(0, 2, "start"); progress(2, 2, "done"); return 1', {
      onProgress: (update) => updates.push(update),
    });
    expect(updates.at(0)).toEqual({ progress: 0, total: 2, message: "start" });
    expect(updates.at(-1)).toEqual({ progress: 2, total: 2, message: "done" });
  });
});

describe("DccApiExecutor.execute: input and limits", () => {
  it("rejects invalid input before running anything", async () => {
    const cases: Array<[unknown, object, string]> = [
      [undefined, {}, "Missing required 'code' string"],
      [42, {}, "code must be a string"],
      ["return 1", { timeoutSecs: 1.5 }, "timeoutSecs must be an integer number of seconds"],
      ["return 1", { timeoutSecs: 0 }, "timeoutSecs must be greater than zero"],
      ["return 1", { timeoutSecs: 301 }, "timeoutSecs must be at most 300"],
      [
        "x".repeat(100_001),
        {},
        "code is 100001 characters, over the code size limit of 100000 characters",
      ],
    ];
    for (const [code, options, error] of cases) {
      expect(await executor.execute(code as string, options)).toMatchObject({
        success: false,
        message: "Script parameters are invalid on maya.",
        errorCode: "INVALID_INPUT",
        error,
        completion: "not_started",
      });
    }
  });

  it("stops a busy loop at the timeout, and the next execution runs normally", async () => {
    const result = failed(await executor.execute("while (true) {}", { timeoutSecs: 1 }));
    expect(result).toMatchObject({
      message: "Script timed out on maya.",
      errorCode: "TIMEOUT",
      error: "Script exceeded the 1s timeout",
      limit: "timeout",
      completion: "complete",
    });
    expect(await executor.execute("return 'fine'")).toMatchObject({ output: "fine" });
  });

  it("stops a built-in QuickJS cannot interrupt by replacing the worker", async () => {
    const single = new DccApiExecutor("maya", { dispatcher });
    try {
      // indexOf over 2^31 - 1 holes: billions of lookups in one built-in that never polls for an
      // interrupt and allocates nothing, so no limit but the timeout can end it.
      const result = failed(
        await single.execute("return new Array(2 ** 31 - 1).indexOf(1)", { timeoutSecs: 1 }),
      );
      expect(result).toMatchObject({ errorCode: "TIMEOUT", limit: "timeout" });
      expect(await single.execute('return dispatch("add", { a: 2, b: 2 })')).toMatchObject({
        output: 4,
      });
    } finally {
      await single.close();
    }
  });

  it("stops a memory bomb at the memory limit", async () => {
    const result = failed(
      await executor.execute("const a = []; while (true) a.push([a.length, 1, 2, 3, 4, 5, 6, 7]);"),
    );
    expect(result).toMatchObject({ errorCode: "LIMIT_EXCEEDED", limit: "memory" });
    expect(result.error).toContain("64 MiB");
  });

  it("names the memory limit when memory runs out while the error itself is being built", async () => {
    // Small objects under GC pressure: QuickJS runs out of memory inside the error's creation.
    const result = failed(
      await executor.execute(
        "const items = []; for (;;) items.push({ index: items.length, text: 'xxxxxxxx' });",
      ),
    );
    expect(result).toMatchObject({ errorCode: "LIMIT_EXCEEDED", limit: "memory" });
    expect(await executor.execute("return 1 + 1")).toMatchObject({ success: true, output: 2 });
    // A thrown object without name or message is still the script's own error.
    expect(failed(await executor.execute("throw {}"))).toMatchObject({ errorCode: "SCRIPT_ERROR" });
  });

  it("stops deep recursion at the stack limit", async () => {
    const result = failed(await executor.execute("const f = (n) => f(n + 1) + 1; return f(0)"));
    expect(result).toMatchObject({ errorCode: "LIMIT_EXCEEDED", limit: "stack" });
  });

  it("cuts too large an output to the limit and says so, instead of failing", async () => {
    const result = await executor.execute('return "x".repeat(2 * 1024 * 1024)');
    expect(result).toMatchObject({
      success: true,
      output: `${"x".repeat(4000)}… [${2 * 1024 * 1024 - 4000} more chars]`,
      truncated: { limitChars: 1024 * 1024, stringsShortened: 1 },
    });
  });

  it("answers a command right whether its host answers at once or later", async () => {
    const result = await executor.execute(
      'const seen = []; for (let i = 0; i < 50; i++) seen.push(dispatch("sometimes-later", i)); return seen',
    );
    expect(result).toMatchObject({
      success: true,
      output: Array.from({ length: 50 }, (_, i) => i),
    });
  });

  it("limits the number of dispatch calls", async () => {
    const small = new DccApiExecutor("maya", {
      dispatcher,
      pool: executor.pool,
      limits: { maxDispatchCalls: 3 },
    });
    const result = failed(await small.execute('for (;;) dispatch("echo", 1)'));
    expect(result).toMatchObject({ errorCode: "LIMIT_EXCEEDED", limit: "dispatchCalls" });
    expect(result.stats.dispatchCalls).toBe(3);
  });

  it("keeps the event loop free while a script spins", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await executor.execute("while (true) {}", { timeoutSecs: 1 });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
  });
});

describe("DccApiExecutor.search", () => {
  it("reports hits with the query quoted as Python does", () => {
    const result = executor.search("add echo");
    expect(result).toEqual({
      success: true,
      message: "Found 2 command(s) matching 'add echo'.",
      // Registered without signature or description: the keys are there, empty, as upstream.
      results: [
        { name: "add", signature: "", description: "" },
        { name: "echo", signature: "", description: "" },
      ],
    });
    expect(executor.search("it's", { limit: 1 }).message).toBe(
      `Found 1 command(s) matching "it's".`,
    );
  });

  it("answers no hits with an empty list and a hint", () => {
    const result = executor.search("zzz");
    expect(result).toMatchObject({
      success: true,
      message: "No commands found matching 'zzz' in the maya catalog.",
      results: [],
      hint: expect.any(String),
    });
  });
});
