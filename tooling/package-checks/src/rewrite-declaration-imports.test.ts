import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  rewriteDeclarationFolder,
  rewriteDeclarationImports,
} from "../scripts/rewrite-declaration-imports.mjs";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("rewriteDeclarationImports", () => {
  it("rewrites relative .ts, .mts, .cts and .d.ts specifiers to their JavaScript files", () => {
    const before = [
      'import type { A } from "./a.ts";',
      "export { B } from '../b/c.mts';",
      'export type { C } from "./c.d.ts";',
      'import "./side.cts";',
      'type D = import("./d.ts").D;',
    ].join("\n");
    expect(rewriteDeclarationImports(before)).toBe(
      [
        'import type { A } from "./a.js";',
        "export { B } from '../b/c.mjs';",
        'export type { C } from "./c.js";',
        'import "./side.cjs";',
        'type D = import("./d.js").D;',
      ].join("\n"),
    );
  });

  it("leaves package specifiers, .js specifiers and prose alone", () => {
    const text = [
      'import type { X } from "@scope/x.ts";',
      'import { Y } from "./y.js";',
      "/** Reads ./notes.ts from disk. */",
    ].join("\n");
    expect(rewriteDeclarationImports(text)).toBe(text);
  });
});

describe("rewriteDeclarationFolder", () => {
  it("rewrites declaration files in nested folders and nothing else", () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-declarations-"));
    folders.push(folder);
    mkdirSync(join(folder, "internal"));
    writeFileSync(join(folder, "index.d.ts"), 'export { A } from "./internal/a.ts";\n');
    writeFileSync(join(folder, "internal", "a.d.ts"), 'import type { B } from "../b.ts";\n');
    writeFileSync(join(folder, "index.js"), 'export { A } from "./internal/a.ts";\n');
    expect(rewriteDeclarationFolder(folder)).toBe(2);
    expect(readFileSync(join(folder, "index.d.ts"), "utf8")).toBe(
      'export { A } from "./internal/a.js";\n',
    );
    expect(readFileSync(join(folder, "internal", "a.d.ts"), "utf8")).toBe(
      'import type { B } from "../b.js";\n',
    );
    expect(readFileSync(join(folder, "index.js"), "utf8")).toBe(
      'export { A } from "./internal/a.ts";\n',
    );
    expect(rewriteDeclarationFolder(folder)).toBe(0);
  });
});
