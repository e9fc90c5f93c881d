#!/usr/bin/env node
// Copies the generated catalog data next to the compiled loader after `tsc -b`, which emits
// only TypeScript outputs. src/catalog/maya-commands.ts reads it relative to its own URL.

import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const from = resolve(packageRoot, "src/catalog/maya-commands.generated.json");
const to = resolve(packageRoot, "dist/catalog/maya-commands.generated.json");
mkdirSync(dirname(to), { recursive: true });
copyFileSync(from, to);
