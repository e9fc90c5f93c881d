// The hostile-script battery: each entry is one dcc_execute call an adversarial or careless agent
// might send, and what the server must answer. Expectations are on the structured result: an
// errorCode with a message pattern, a harmless output, or the SDK's input-validation refusal.

/** Marker the battery puts in the server's environment; no output may ever contain it. */
export const secretName = "DCC_RELIABILITY_SECRET";

/** What a script must end with. */
export type Expectation =
  /** Success; `output` (compared with toEqual) or `check` on the output. */
  | { kind: "ok"; output?: unknown; check?: (output: unknown, logs: unknown[]) => void }
  /**
   * A structured failure with this code, the limit it names (when `limit` is given), and its
   * `error` text matching `error`. One outcome only: where two limits could end a script, its
   * arguments make sure only one can (see `code`).
   */
  | { kind: "error"; errorCode: string; limit?: string; error?: RegExp }
  /** Refused by the tool's input schema before anything ran (`isError`, message in the text). */
  | { kind: "refused"; text: RegExp };

/** One battery entry. */
export interface HostileScript {
  name: string;
  group: "escape" | "bomb" | "output" | "dispatch" | "syntax" | "input";
  /** The `dcc_execute` arguments (see `code` for the `timeout_secs` they use). */
  args: Record<string, unknown>;
  expect: Expectation;
  /**
   * Set when the stack does not meet the expectation yet: the battery runs the entry as
   * `it.fails` and this text says where the bug is.
   */
  knownBug?: string;
}

const forbiddenGlobals = [
  "process",
  "require",
  "module",
  "fetch",
  "WebAssembly",
  "SharedArrayBuffer",
  "Atomics",
  "setTimeout",
  "setInterval",
  "queueMicrotask",
  "XMLHttpRequest",
  "Buffer",
  "std",
  "os",
  "Deno",
  "Bun",
];

const notDefined = (name: string): RegExp =>
  new RegExp(`ReferenceError: '?${name}'? is not defined`);
// Scripts meant to run into their timeout get 2 s, and allocate nothing that could reach another
// limit first. Every other script gets the largest timeout a call may ask for (300 s): the memory,
// stack, output and dispatch limits it runs into are reached in seconds even on a loaded machine,
// so the deadline never races them.
const code = (text: string, timeout = 300): Record<string, unknown> => ({
  code: text,
  timeout_secs: timeout,
});

/** The battery. */
export const hostileScripts: readonly HostileScript[] = [
  // Escape attempts.
  {
    name: "probes the usual host globals",
    group: "escape",
    args: code(
      `return ${JSON.stringify(forbiddenGlobals)}.map((name) => typeof globalThis[name]);`,
    ),
    expect: { kind: "ok", output: forbiddenGlobals.map(() => "undefined") },
  },
  {
    name: "lists every global name",
    group: "escape",
    args: code("return Reflect.ownKeys(globalThis).map(String);"),
    expect: {
      kind: "ok",
      check: (output) => {
        const names = output as string[];
        for (const name of forbiddenGlobals) {
          if (names.includes(name)) throw new Error(`global ${name} is reachable`);
        }
      },
    },
  },
  {
    name: "calls process.exit",
    group: "escape",
    args: code("process.exit(1);"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("process") },
  },
  {
    name: "reads process.env",
    group: "escape",
    args: code(`return process.env.${secretName};`),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("process") },
  },
  {
    name: "requires child_process",
    group: "escape",
    args: code("return require('child_process').execSync('id').toString();"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("require") },
  },
  {
    name: "dynamic import() of node:fs",
    group: "escape",
    args: code(
      "const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8');",
    ),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /import|module/i },
  },
  {
    name: "reaches the global object through the Function constructor",
    group: "escape",
    args: code(
      "const g = Function('return this')(); return [typeof g.process, typeof g.require, g === globalThis];",
    ),
    expect: { kind: "ok", output: ["undefined", "undefined", true] },
  },
  {
    name: "builds process access from a constructor chain",
    group: "escape",
    args: code("return (() => {}).constructor.constructor('return process')().pid;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("process") },
  },
  {
    name: "walks dispatch's own constructor and prototype",
    group: "escape",
    args: code(
      "const F = dispatch.constructor; const p = Object.getPrototypeOf(dispatch); return [F === Function, p === Function.prototype, F('return typeof require')()];",
    ),
    expect: { kind: "ok", output: [true, true, "undefined"] },
  },
  {
    name: "Reflect and Proxy around dispatch",
    group: "escape",
    args: code(
      "const spy = new Proxy(dispatch, { apply: (target, self, args) => Reflect.apply(target, self, args) }); return [Reflect.ownKeys(dispatch).map(String).sort(), spy('objExists', { args: ['nothing'] })];",
    ),
    expect: { kind: "ok", output: [["length", "name", "prototype"], false] },
  },
  {
    name: "passes a Proxy with throwing traps as dispatch arguments",
    group: "escape",
    args: code(
      "return dispatch('ls', new Proxy({}, { ownKeys() { throw new Error('trap fired'); }, get() { throw new Error('trap fired'); } }));",
    ),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /trap fired/ },
  },
  {
    name: "pollutes prototypes through dispatch arguments",
    group: "escape",
    args: code(
      [
        `const evil = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "name": "evil"}');`,
        "const tries = [['polySphere', evil], ['polySphere', { name: 'victim' }], ['addAttr', { args: ['victim'], longName: '__proto__', attributeType: 'double' }], ['setAttr', { args: ['victim.__proto__', 1] }], ['setAttr', { args: ['victim.constructor', 1] }], ['rename', { args: ['victim', '__proto__'] }], ['ls', evil], ['xform', { args: ['__proto__'], translation: [1, 2, 3] }]];",
        "for (const [name, args] of tries) { try { dispatch(name, args); } catch {} }",
        "return { polluted: ({}).polluted ?? null };",
      ].join("\n"),
    ),
    expect: { kind: "ok", output: { polluted: null } },
  },
  {
    name: "pollutes the guest's own prototypes (isolated from the host)",
    group: "escape",
    args: code(
      "Object.prototype.polluted = 'yes'; Array.prototype.toJSON = () => 'hijacked'; JSON.stringify = () => '{}'; return dispatch('ls', { type: 'transform' });",
    ),
    expect: { kind: "ok" },
  },
  {
    name: "SharedArrayBuffer with Atomics.wait forever",
    group: "escape",
    args: code(
      "const cell = new Int32Array(new SharedArrayBuffer(4)); Atomics.wait(cell, 0, 0); return 'woke';",
    ),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("SharedArrayBuffer") },
  },
  {
    name: "compiles WebAssembly",
    group: "escape",
    args: code("return new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("WebAssembly") },
  },
  {
    name: "fetches the network",
    group: "escape",
    args: code("const response = await fetch('http://127.0.0.1:9/'); return response.status;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("fetch") },
  },
  {
    name: "schedules a timer",
    group: "escape",
    args: code("setTimeout(() => {}, 10); return 1;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: notDefined("setTimeout") },
  },
  {
    name: "asks Maya's own escape hatches for the environment and a shell",
    group: "escape",
    args: code(
      `const tries = [['getenv', { args: ['${secretName}'] }], ['system', { args: ['env'] }], ['python', { command: 'import os; os.environ' }], ['eval', { args: ['getenv ${secretName}'] }]];
const codes = [];
for (const [name, args] of tries) { try { dispatch(name, args); codes.push('ran ' + name); } catch (error) { codes.push(error.code); } }
return codes;`,
    ),
    expect: {
      kind: "ok",
      check: (output) => {
        for (const item of output as string[]) {
          if (item.startsWith("ran ")) throw new Error(`${item} was executed`);
        }
      },
    },
  },
  {
    name: "eval of a string still lands in the sandbox",
    group: "escape",
    args: code("return eval('typeof process + \":\" + typeof require');"),
    expect: { kind: "ok", output: "undefined:undefined" },
  },
  {
    name: "breaks out of the wrapper with unbalanced braces",
    group: "escape",
    args: code("})(); globalThis.escaped = typeof process; (async () => {"),
    expect: { kind: "ok", output: null },
  },
  {
    name: "import.meta in a script",
    group: "escape",
    args: code("return import.meta.url;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /SyntaxError/ },
  },
  // Resource bombs.
  {
    name: "infinite loop",
    group: "bomb",
    args: code("for (;;) {}", 2),
    expect: { kind: "error", errorCode: "TIMEOUT", error: /2s timeout/ },
  },
  {
    name: "infinite loop after an await",
    group: "bomb",
    args: code("await null; let n = 0; while (true) n++;", 2),
    expect: { kind: "error", errorCode: "TIMEOUT" },
  },
  {
    name: "infinite loop that swallows every exception",
    group: "bomb",
    args: code("for (;;) { try { for (;;) {} } catch { } finally { continue; } }", 2),
    expect: { kind: "error", errorCode: "TIMEOUT" },
  },
  {
    name: "deep recursion",
    group: "bomb",
    args: code("const f = (n) => f(n + 1) + 1; return f(0);"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack", error: /stack limit/ },
  },
  {
    name: "recursion through Array.prototype.map",
    group: "bomb",
    args: code("const f = (n) => [n].map(f); return f(0);"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack", error: /stack limit/ },
  },
  {
    name: "recursion through toString",
    group: "bomb",
    args: code("const o = { toString() { return String(o) + 'x'; } }; return String(o);"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack", error: /stack limit/ },
  },
  {
    name: "huge array",
    group: "bomb",
    args: code("return new Array(1e8).fill(0).length;"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "array push until memory runs out",
    group: "bomb",
    args: code("const items = []; for (;;) items.push({ index: items.length, text: 'xxxxxxxx' });"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "string doubling",
    group: "bomb",
    // Concatenation builds ropes, so the length limit comes long before the memory limit.
    args: code("let s = 'x'; for (;;) s += s;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /string too long/ },
  },
  // No interrupt reaches these built-ins (quickjs-emscripten #219): they run until memory runs out,
  // which takes seconds, well within the 300 s timeout.
  {
    name: "an uninterruptible built-in: new Array(5e7).join('ab')",
    group: "bomb",
    args: code("return new Array(5e7).join('ab').length;"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "an uninterruptible built-in: new Array(1e8) + ''",
    group: "bomb",
    args: code("return (new Array(1e8) + '').length;"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "a promise that never settles",
    group: "bomb",
    args: code("await new Promise(() => {}); return 'unreachable';"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /never settle/ },
  },
  {
    name: "a promise flood",
    group: "bomb",
    args: code(
      "let done = 0; for (let i = 0; i < 20000; i++) Promise.resolve(i).then(() => done++); await null; return 'flooded';",
    ),
    expect: { kind: "ok", output: "flooded" },
  },
  {
    name: "an endless microtask chain",
    group: "bomb",
    args: code(
      "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
    ),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "memory growing inside promise jobs, then waiting on nothing",
    group: "bomb",
    args: code(
      "const a = []; const grow = () => Promise.resolve().then(() => { a.push(new Array(10000).fill(1)); grow(); }); grow(); await new Promise(() => {});",
    ),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "an async function nobody awaits runs out of memory, then the script waits on nothing",
    group: "bomb",
    args: code(
      "async function fill() { await null; const items = []; for (;;) items.push({ index: items.length }); } fill(); await new Promise(() => {});",
    ),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "recursion in a promise job, then waiting on nothing",
    group: "bomb",
    args: code(
      "Promise.resolve().then(function f() { return f() + 1; }); await new Promise(() => {});",
    ),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack", error: /stack limit/ },
  },
  {
    name: "a catastrophic regular expression",
    group: "bomb",
    args: code("return /^(a+)+$/.test('a'.repeat(40) + 'b');", 2),
    expect: { kind: "error", errorCode: "TIMEOUT" },
  },
  {
    name: "console spam",
    group: "bomb",
    args: code("for (let i = 0; i < 20000; i++) console.log('spam', i); return 'spammed';"),
    expect: {
      kind: "ok",
      output: "spammed",
      check: (_output, logs) => {
        if (logs.length > 1001) throw new Error(`${logs.length} log entries kept`);
        // The executor's marker, or the bridge's structured trim of a long log list.
        if (!/dropped|more items/.test(JSON.stringify(logs)))
          throw new Error("no truncation marker");
      },
    },
  },
  {
    name: "one enormous console line",
    group: "bomb",
    args: code("console.error('y'.repeat(20_000_000)); return 'logged';"),
    expect: { kind: "ok", output: "logged" },
  },
  // Outputs.
  {
    name: "a 100 MB return value",
    group: "output",
    // repeat() builds a small rope. An output over the limit is cut, not failed, but taking the
    // head of a rope makes it flat, and 100 MB flat is over the memory limit: the memory limit
    // still applies to whatever the output costs.
    args: code("return 'x'.repeat(100 * 1024 * 1024);"),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "a 2 MB return value",
    group: "output",
    args: code("return 'x'.repeat(2 * 1024 * 1024);"),
    expect: { kind: "ok", output: `${"x".repeat(4000)}… [${2 * 1024 * 1024 - 4000} more chars]` },
  },
  {
    name: "a 50 MB return value of many small objects",
    group: "output",
    args: code(
      "const rows = []; for (let i = 0; i < 400000; i++) rows.push({ id: i, name: 'row' + i }); return rows;",
    ),
    expect: {
      kind: "ok",
      check: (output) => {
        const rows = output as unknown[];
        if (rows.length > 201 || !/more items/.test(String(rows.at(-1)))) {
          throw new Error(`not cut: ${JSON.stringify(rows).slice(0, 200)}`);
        }
      },
    },
  },
  {
    name: "a return value built until memory runs out",
    group: "output",
    args: code(
      "const rows = []; for (let i = 0; ; i++) rows.push({ id: i, name: 'row'.repeat(50) + i }); return rows;",
    ),
    expect: { kind: "error", errorCode: "LIMIT_EXCEEDED", limit: "memory", error: /memory limit/ },
  },
  {
    name: "a cyclic return value",
    group: "output",
    args: code("const node = { name: 'a', children: [] }; node.children.push(node); return node;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /cycle at output\.children\[0\]/ },
  },
  {
    name: "BigInt return values",
    group: "output",
    args: code("return { big: 2n ** 70n, list: [1n, -5n] };"),
    expect: { kind: "ok", output: { big: "1180591620717411303424", list: ["1", "-5"] } },
  },
  {
    name: "a Symbol return value",
    group: "output",
    args: code("return { tag: Symbol('secret') };"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /symbol at output\.tag/ },
  },
  {
    name: "a function return value",
    group: "output",
    args: code("return [1, () => 2];"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /function at output\[1\]/ },
  },
  {
    name: "undefined, NaN and Infinity",
    group: "output",
    args: code("return { u: undefined, n: NaN, i: Infinity };"),
    expect: { kind: "ok", output: { u: null, n: null, i: null } },
  },
  {
    name: "a getter that throws on the return value",
    group: "output",
    args: code("return { get boom() { throw new Error('getter exploded'); } };"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /getter exploded/ },
  },
  {
    name: "a toJSON that spins forever",
    group: "output",
    args: code("return { toJSON() { for (;;) {} } };", 2),
    expect: { kind: "error", errorCode: "TIMEOUT" },
  },
  {
    name: "throws a Proxy whose traps spin",
    group: "output",
    args: code("throw new Proxy({}, { get() { for (;;) {} } });", 2),
    expect: { kind: "error", errorCode: "TIMEOUT", limit: "timeout", error: /2s timeout/ },
  },
  {
    name: "throws an error whose message getter spins",
    group: "output",
    args: code(
      "const e = new Error('m'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e;",
      2,
    ),
    expect: { kind: "error", errorCode: "TIMEOUT", limit: "timeout", error: /2s timeout/ },
  },
  {
    name: "throws a non-Error value",
    group: "output",
    args: code("throw { not: 'an error' };"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR" },
  },
  // Bad dispatch.
  {
    name: "an unknown command",
    group: "dispatch",
    args: code("return dispatch('noSuchCommand', {});"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /Unknown command: noSuchCommand/ },
  },
  {
    name: "a misspelt command, caught, gets suggestions",
    group: "dispatch",
    args: code(
      "try { dispatch('polySpher', {}); } catch (error) { return { code: error.code, command: error.command, message: error.message }; }",
    ),
    expect: {
      kind: "ok",
      check: (output) => {
        const error = output as { code: string; command: string; message: string };
        if (
          error.code !== "UNKNOWN_COMMAND" ||
          error.command !== "polySpher" ||
          !error.message.includes("polySphere")
        ) {
          throw new Error(`unexpected error: ${JSON.stringify(error)}`);
        }
      },
    },
  },
  {
    name: "a command name of a million characters",
    group: "dispatch",
    args: code("return dispatch('x'.repeat(1_000_000), {});"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /Unknown command/ },
  },
  {
    name: "non-JSON arguments: functions, symbols and undefined are dropped",
    group: "dispatch",
    args: code(
      "return dispatch('objExists', { args: ['nothing'], f() {}, s: Symbol('x'), u: undefined });",
    ),
    expect: { kind: "ok", output: false },
  },
  {
    name: "non-JSON arguments: a BigInt",
    group: "dispatch",
    args: code("return dispatch('objExists', { args: [1n] });"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /BigInt/i },
  },
  {
    name: "non-JSON arguments: a cycle",
    group: "dispatch",
    args: code("const a = { args: [] }; a.args.push(a); return dispatch('objExists', a);"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /circular|cycl/i },
  },
  {
    name: "a command name that spins in toString",
    group: "dispatch",
    args: code("return dispatch({ toString() { for (;;) {} } }, {});", 2),
    expect: { kind: "error", errorCode: "TIMEOUT" },
  },
  {
    name: "100,000 dispatch calls",
    group: "dispatch",
    args: code(
      "for (let i = 0; i < 100000; i++) dispatch('objExists', { args: ['pSphere1'] }); return 'all done';",
    ),
    expect: {
      kind: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "dispatchCalls",
      error: /dispatch call limit/,
    },
  },
  {
    name: "100,000 dispatch calls, each error swallowed",
    group: "dispatch",
    args: code(
      "let ok = 0; for (let i = 0; i < 100000; i++) { try { dispatch('objExists', { args: ['a'] }); ok++; } catch {} } return ok;",
    ),
    expect: {
      kind: "error",
      errorCode: "LIMIT_EXCEEDED",
      limit: "dispatchCalls",
      error: /dispatch call limit/,
    },
  },
  {
    name: "a 10 MB argument",
    group: "dispatch",
    args: code("return dispatch('objExists', { args: ['n'.repeat(10 * 1024 * 1024)] });"),
    expect: { kind: "ok", output: false },
  },
  {
    name: "an argument nested 1000 deep",
    group: "dispatch",
    args: code(
      "let inner = []; for (let i = 0; i < 1000; i++) inner = [inner];\nreturn dispatch('ls', { options: { depth: inner } });",
    ),
    expect: {
      kind: "error",
      errorCode: "SCRIPT_ERROR",
      error: /INVALID_ARGS, from ls\)[\s\S]*deeper than 64 levels/,
    },
  },
  {
    name: "an argument nested 1000 deep, caught, and the next call works",
    group: "dispatch",
    args: code(
      "let inner = []; for (let i = 0; i < 1000; i++) inner = [inner];\nlet code; try { dispatch('setAttr', { args: ['pCube1.tx', inner] }); } catch (e) { code = [e.code, e.completion]; }\nreturn [code, dispatch('objExists', { args: ['nothing'] })];",
    ),
    expect: { kind: "ok", output: [["INVALID_ARGS", "not_started"], false] },
  },
  {
    name: "an argument over the size limit",
    group: "dispatch",
    args: code("return dispatch('objExists', { args: ['n'.repeat(17 * 1024 * 1024)] });"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /INVALID_ARGS[\s\S]*maxArgsChars/ },
  },
  // Syntax.
  {
    name: "a syntax error",
    group: "syntax",
    args: code("return 1 +;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /SyntaxError/ },
  },
  {
    name: "an unterminated comment",
    group: "syntax",
    args: code("/* never closed\nreturn 1;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /SyntaxError/ },
  },
  {
    name: "broken TypeScript",
    group: "syntax",
    args: code("let x: = 1;\nreturn x;"),
    expect: { kind: "error", errorCode: "SCRIPT_ERROR", error: /SyntaxError/ },
  },
  {
    name: "only a comment",
    group: "syntax",
    args: code("// nothing to do"),
    expect: { kind: "ok", output: null },
  },
  // Input.
  {
    name: "empty code",
    group: "input",
    args: code(""),
    expect: { kind: "error", errorCode: "INVALID_INPUT", error: /empty/ },
  },
  {
    name: "whitespace-only code",
    group: "input",
    args: code(" \n\t \n"),
    expect: { kind: "error", errorCode: "INVALID_INPUT", error: /empty/ },
  },
  {
    name: "no code at all",
    group: "input",
    args: { timeout_secs: 2 },
    expect: { kind: "error", errorCode: "INVALID_INPUT", error: /Missing required 'code'/ },
  },
  {
    // The tool's schema carries the executor's own limit, so it refuses what the executor would.
    name: "code over the size limit",
    group: "input",
    args: code(`return ${"1+".repeat(60_000)}1;`),
    expect: { kind: "refused", text: /code must be at most 100000 characters/ },
  },
  {
    name: "code far over the size limit",
    group: "input",
    args: code(`// ${"z".repeat(250_000)}`),
    expect: { kind: "refused", text: /code must be at most 100000 characters/ },
  },
  {
    name: "code that is not a string",
    group: "input",
    args: { code: { toString: "return 1" }, timeout_secs: 2 },
    expect: { kind: "refused", text: /code must be a string/ },
  },
  {
    name: "timeout 0",
    group: "input",
    args: { code: "return 1", timeout_secs: 0 },
    expect: { kind: "refused", text: /between 1 and 300/ },
  },
  {
    name: "negative timeout",
    group: "input",
    args: { code: "return 1", timeout_secs: -5 },
    expect: { kind: "refused", text: /between 1 and 300/ },
  },
  {
    name: "fractional timeout",
    group: "input",
    args: { code: "return 1", timeout_secs: 1.5 },
    expect: { kind: "refused", text: /whole number/ },
  },
  {
    name: "timeout over 300 s",
    group: "input",
    args: { code: "return 1", timeout_secs: 301 },
    expect: { kind: "refused", text: /between 1 and 300/ },
  },
  {
    name: "timeout as a string",
    group: "input",
    args: { code: "return 1", timeout_secs: "5" },
    expect: { kind: "refused", text: /number of seconds/ },
  },
  {
    name: "timeout as null (NaN over JSON)",
    group: "input",
    args: { code: "return 1", timeout_secs: null },
    expect: { kind: "refused", text: /number of seconds/ },
  },
];
