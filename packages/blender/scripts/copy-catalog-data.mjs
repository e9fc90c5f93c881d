#!/usr/bin/env node
// Copies the catalog's JSON data next to the compiled loaders after `tsc -b`, which emits only
// TypeScript outputs. The loaders read src/data/*.json relative to their own URL, so the same
// code works from src under vitest and from dist.

import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const from = join(packageRoot, "src/data");
const to = join(packageRoot, "dist/data");
mkdirSync(to, { recursive: true });
for (const file of readdirSync(from)) {
  if (file.endsWith(".json")) copyFileSync(join(from, file), join(to, file));
}
