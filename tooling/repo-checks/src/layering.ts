import { readFileSync } from "node:fs";
import { join } from "node:path";
import { displayPath, LAYERS, listSourceFiles, readWorkspacePackages } from "./workspace.ts";

const dependencyFields = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
];
// Matches static imports, re-exports, dynamic import() and require() of a @dcc package.
const importPattern = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)["'](@dcc\/[a-z0-9-]+)/g;

/** Every place where a package reaches a `@dcc` package of the same or a higher layer. */
export function findLayeringViolations(root: string): string[] {
  const violations: string[] = [];
  for (const pkg of readWorkspacePackages(root)) {
    const own = LAYERS[pkg.name];
    if (own === undefined) {
      violations.push(`${pkg.name}: not assigned to a layer (add it to LAYERS)`);
      continue;
    }
    const check = (target: string, where: string): void => {
      const layer = LAYERS[target];
      if (layer !== undefined && layer >= own) {
        violations.push(
          `${pkg.name} (layer ${own}) depends on ${target} (layer ${layer}) in ${where}`,
        );
      }
    };
    for (const field of dependencyFields) {
      const deps = pkg.manifest[field];
      if (deps && typeof deps === "object") {
        for (const target of Object.keys(deps)) check(target, `package.json ${field}`);
      }
    }
    for (const file of listSourceFiles(join(pkg.directory, "src"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(importPattern)) {
        const target = match[1] as string;
        if (target !== pkg.name) check(target, displayPath(root, file));
      }
    }
  }
  return violations;
}
