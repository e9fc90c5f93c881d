// The body of every async function in a script, wrapped so that what it throws is shown to the
// host before it rejects the function's promise. QuickJS keeps that error inside the promise,
// where nothing may ever read it (an async function nobody awaits that ran out of memory leaves
// the script waiting on nothing); promise callbacks are watched by the bootstrap, and this covers
// the one path it cannot see. Only insertions, none with a line break, so every line and the
// script's own statements stay where they were.
import { type AstNode, childNodes } from "../scripts/internal/ast.ts";
import { loadOnFirstUse } from "./load-on-first-use.ts";

// Loaded by the first script with an async function, not by importing the package.
const babelParser = loadOnFirstUse<typeof import("@babel/parser")>("@babel/parser");

/** The guest global the inserted handlers call (installed by the bootstrap). */
export const ASYNC_ERROR_REPORTER = "__dccAsyncError";

/** The positioned Babel node this reads (a parse without errors positions every node). */
interface Node extends AstNode {
  start: number;
  end: number;
  async?: boolean;
  body?: Node;
  directives?: Node[];
  extra?: { parenthesized?: boolean; parenStart?: number };
}

interface Insertion {
  at: number;
  text: string;
  /** Closing texts at one position go innermost first. */
  depth: number;
  closing: boolean;
}

const functionTypes = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ObjectMethod",
  "ClassMethod",
  "ClassPrivateMethod",
]);
const handler = `catch (__dccError) { ${ASYNC_ERROR_REPORTER}(__dccError); throw __dccError; }`;

/**
 * `code` (a wrapped script, see `wrapScript`) with each async function body but the wrapper's own
 * in a `try` that reports what it throws; `code` unchanged when it has no other async function or
 * does not parse as JavaScript (QuickJS then reports the syntax error).
 */
export function instrumentAsync(code: string): string {
  if (!/\basync\b/.test(code.slice(6))) return code;
  let program: Node;
  try {
    program = babelParser().parse(code, {
      sourceType: "script",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    }).program as unknown as Node;
  } catch {
    return code;
  }
  const insertions: Insertion[] = [];
  const visit = (node: Node, depth: number): void => {
    if (functionTypes.has(node.type) && node.async === true && node.start > 1) {
      insertions.push(...wrapBody(code, node, depth));
    }
    for (const child of childNodes(node)) visit(child as Node, depth + 1);
  };
  visit(program, 0);
  if (insertions.length === 0) return code;
  insertions.sort(
    (a, b) =>
      a.at - b.at ||
      Number(a.closing) - Number(b.closing) ||
      (a.closing ? b.depth - a.depth : a.depth - b.depth),
  );
  let out = "";
  let from = 0;
  for (const insertion of insertions) {
    out += code.slice(from, insertion.at) + insertion.text;
    from = insertion.at;
  }
  return out + code.slice(from);
}

function wrapBody(code: string, fn: Node, depth: number): Insertion[] {
  const body = fn.body as Node;
  if (body.type !== "BlockStatement") {
    // An arrow's expression body: `async () => value` becomes a block that returns it.
    const span = expressionSpan(code, body);
    if (span === undefined) return [];
    return [
      { at: span.start, text: "{ try { return (", depth, closing: false },
      { at: span.end, text: `); } ${handler} }`, depth, closing: true },
    ];
  }
  // After the directives: a "use strict" moved into the try would no longer be one.
  const directives = body.directives ?? [];
  const open = directives.length > 0 ? (directives.at(-1) as Node).end : body.start + 1;
  return [
    { at: open, text: " try {", depth, closing: false },
    { at: body.end - 1, text: ` } ${handler}`, depth, closing: true },
  ];
}

/**
 * Where an arrow's expression body starts and ends, with the parentheses around it (`() => ({})`);
 * undefined when they cannot be matched plainly (a comment between them): that function is left
 * as it is.
 */
function expressionSpan(code: string, body: Node): { start: number; end: number } | undefined {
  const { extra } = body;
  if (extra?.parenthesized !== true || extra.parenStart === undefined) {
    return { start: body.start, end: body.end };
  }
  const before = code.slice(extra.parenStart, body.start);
  if (!/^[(\s]*$/.test(before)) return undefined;
  let opens = before.split("(").length - 1;
  let end = body.end;
  while (opens > 0) {
    const char = code[end];
    if (char === ")") opens -= 1;
    else if (char === undefined || !/\s/.test(char)) return undefined;
    end += 1;
  }
  return { start: extra.parenStart, end };
}
