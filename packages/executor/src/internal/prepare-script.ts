// Turns the code an agent sent into one JS expression QuickJS can evaluate: Markdown fences
// blanked out, the body wrapped in an async IIFE (top-level return and await), and TypeScript
// types stripped by sucrase, which keeps every line where it was (sucrase is loaded by the first
// script a worker runs, not by importing the package).
import { loadOnFirstUse } from "./load-on-first-use.ts";
import type { RunEntry } from "./sandbox-types.ts";

const sucrase = loadOnFirstUse<typeof import("sucrase")>("sucrase");

const fenceOpen = /^\s*```[\w+-]*[ \t]*$/;
const fenceClose = /^\s*```\s*$/;

/**
 * Blanks a Markdown code fence around the code (the lines stay, so line numbers still match the
 * text the agent sent). Code without a leading fence is returned unchanged.
 */
export function stripCodeFences(code: string): string {
  const lines = code.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1 || !fenceOpen.test(lines[first] ?? "")) return code;
  let last = lines.length - 1;
  while (last > first && (lines[last] ?? "").trim() === "") last--;
  if (last === first || !fenceClose.test(lines[last] ?? "")) return code;
  lines[first] = "";
  lines[last] = "";
  return lines.join("\n");
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * Wraps the body so its first line sits on the wrapper's first line; the newline before `})`
 * keeps a trailing `// comment` from swallowing it.
 */
export function wrapScript(code: string, entry?: RunEntry): string {
  let tail = "";
  if (entry !== undefined) {
    if (!identifier.test(entry.name))
      throw new TypeError(`Invalid entry point name: ${entry.name}`);
    tail = `;return await ${entry.name}(JSON.parse(${JSON.stringify(entry.paramsJson)}));\n`;
  }
  return `(async () => {${stripCodeFences(code)}\n${tail}})()`;
}

/** Strips TypeScript syntax from wrapped code; throws a SyntaxError with `(line:column)`. */
export function stripTypes(wrapped: string): string {
  try {
    return sucrase().transform(wrapped, {
      transforms: ["typescript"],
      disableESTransforms: true,
      production: true,
    }).code;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SyntaxError(message);
  }
}
