// Scripts that recurse through different paths of QuickJS: its interpreter, built-ins that call
// back into the guest, its JSON parser and its JavaScript parser. Their native stack use per byte
// of QuickJS stack differs, and the parser's is the largest measured.
const depth = 30_000;

/** `[name, code]` pairs, each of which runs out of any allowed stack limit. */
export const deepRecursionScripts: Array<[string, string]> = [
  ["plain recursion", "function f() { return f() + 1 } return f()"],
  ["Array.prototype.map", "function f(n) { return [n].map(f) } return f(1)"],
  [
    "toString",
    "const a = { toString() { return String(b) } }; const b = { toString() { return String(a) } }; return String(a)",
  ],
  ["JSON reviver", "function r(k, v) { return JSON.parse('[1]', r) } return JSON.parse('[1]', r)"],
  ["getter", "const o = { get x() { return this.x } }; return o.x"],
  ["Proxy trap", "const p = new Proxy({}, { get(t, k, r) { return r[k] } }); return p.a"],
  ["toJSON", "const o = { toJSON() { return JSON.stringify(o) } }; return JSON.stringify(o)"],
  ["constructor", "class A { constructor() { new A() } } return new A()"],
  ["nested JSON", `return JSON.parse("[".repeat(${depth}) + "]".repeat(${depth}))`],
  ["nested script", `return ${"(".repeat(depth)}0${")".repeat(depth)}`],
  ["nested expression", `return eval("(".repeat(${depth}) + "0" + ")".repeat(${depth}))`],
  [
    "nested Function body",
    `return new Function("return " + "[".repeat(${depth}) + "]".repeat(${depth}))()`,
  ],
  [
    "nested stringify",
    `let a = []; for (let i = 0; i < ${depth}; i++) a = [a]; return JSON.stringify(a)`,
  ],
];
