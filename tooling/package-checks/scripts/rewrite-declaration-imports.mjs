#!/usr/bin/env node
// A package's post-build step: `node ../../tooling/package-checks/scripts/rewrite-declaration-imports.mjs`.
// TypeScript 7 rewrites `./x.ts` to `./x.js` in emitted JavaScript (rewriteRelativeImportExtensions)
// but keeps `./x.ts` in emitted declarations, which tools and TypeScript before 5.0 cannot read.
// This rewrites the relative specifiers of every `.d.ts` under `dist` (or the folder given) to
// the `.js` files that ship beside them. Plain JavaScript so it runs on Node 20 with no build.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// `from "./a.ts"`, `import("../b.mts")`, `import "./c.ts"` and `export … from`, with either quote.
const specifier =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]*?)(?:\.d)?\.([mc]?)ts\2/g;

/**
 * Returns `text` with each relative `.ts`, `.mts`, `.cts` (or `.d.ts`) import specifier ending in
 * `.js`, `.mjs` or `.cjs` instead.
 * @param {string} text
 * @returns {string}
 */
export function rewriteDeclarationImports(text) {
  return text.replace(specifier, (_match, lead, quote, path, kind) => {
    return `${lead}${quote}${path}.${kind}js${quote}`;
  });
}

/**
 * Rewrites every `.d.ts`, `.d.mts` and `.d.cts` file below `folder` in place.
 * @param {string} folder
 * @returns {number} how many files changed
 */
export function rewriteDeclarationFolder(folder) {
  let changed = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.d\.[mc]?ts$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const before = readFileSync(path, "utf8");
    const after = rewriteDeclarationImports(before);
    if (after !== before) {
      writeFileSync(path, after);
      changed += 1;
    }
  }
  return changed;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  rewriteDeclarationFolder(resolve(process.argv[2] ?? "dist"));
}
