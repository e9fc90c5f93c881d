// Runs one benchmark module for `bench/run.mjs` in a process of its own, so that nothing one
// module leaves behind (module caches, handles, heap) changes another's figures or imports.
// Context in: the JSON file named by argv[3]; rows out: the same file, rewritten.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [file, contextFile] = process.argv.slice(2);
const context = JSON.parse(readFileSync(contextFile, "utf8"));
const module = await import(pathToFileURL(file).href);
const rows = await module.run({ ...context, log: (line) => process.stderr.write(`  ${line}\n`) });
writeFileSync(contextFile, JSON.stringify({ rows }));
process.exit(0);
