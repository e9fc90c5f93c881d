import { loadOnFirstUse } from "../../internal/load-on-first-use.ts";
import { ScriptSyntaxError } from "../script-syntax-error.ts";
import type { AstNode } from "./ast.ts";

// Loaded by the first script that is analyzed, not by importing the package.
const babelParser = loadOnFirstUse<typeof import("@babel/parser")>("@babel/parser");

/**
 * Parses a sandbox script the way the sandbox reads it: a script (not a module) with TypeScript
 * syntax, where top-level `return` and `await` are allowed.
 */
export function parseScript(code: string): AstNode[] {
  try {
    const file = babelParser().parse(code, {
      sourceType: "script",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      plugins: ["typescript"],
    });
    return file.program.body as unknown as AstNode[];
  } catch (error) {
    const position = (error as { loc?: { line?: number; column?: number } }).loc;
    const message = error instanceof Error ? error.message : String(error);
    throw new ScriptSyntaxError({
      // Babel appends "(line:column)" to its message; the position is reported separately.
      detail: message.replace(/ \(\d+:\d+\)$/, ""),
      line: position?.line ?? 1,
      column: (position?.column ?? 0) + 1,
      cause: error,
    });
  }
}
