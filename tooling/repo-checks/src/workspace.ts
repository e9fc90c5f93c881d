import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The layer of each `@dcc` package; a package may depend only on strictly lower layers. Adapter
 * packages (`@dcc/maya`, and `@dcc/blender` over `@dcc/link` and `@dcc/linked-adapter`) sit above
 * the executor and below the MCP bridge, so an adapter never reaches MCP code.
 */
export const LAYERS: Readonly<Record<string, number>> = {
  "@dcc/cancel": 0,
  "@dcc/catalog": 1,
  // Beside the catalog: it needs only @dcc/cancel. DCC adapters sit above it and the executor.
  "@dcc/link": 1,
  "@dcc/executor": 2,
  // The kit for adapters over @dcc/link: above the executor and the link, below the adapters.
  "@dcc/linked-adapter": 3,
  "@dcc/maya": 4,
  "@dcc/blender": 4,
  "@dcc/mcp-bridge": 5,
  // A JobQueue for the bridge and workers that own an adapter: above both, never imported by them.
  "@dcc/farm": 6,
  // The app on top: it may use every package, the farm among them (`--farm`).
  "@dcc/reference-server": 7,
  "@dcc/example-echo": 6,
  "@dcc/example-linked": 6,
};

/** A workspace package as read from disk. */
export interface WorkspacePackage {
  name: string;
  directory: string;
  manifest: Record<string, unknown>;
}

/** Reads every package under `packages/`, `apps/` and `examples/` of a repository root. */
export function readWorkspacePackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps", "examples"]) {
    let entries: string[];
    try {
      entries = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const entry of entries) {
      const directory = join(root, group, entry);
      const manifestPath = join(directory, "package.json");
      try {
        statSync(manifestPath);
      } catch {
        continue;
      }
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
      found.push({ name: String(manifest["name"]), directory, manifest });
    }
  }
  return found;
}

/** Lists `.ts` files below a folder, skipping `node_modules` and `dist`. */
export function listSourceFiles(directory: string): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist") continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  walk(directory);
  return files;
}

/** Path relative to the repository root, with forward slashes, for messages. */
export function displayPath(root: string, path: string): string {
  return relative(root, path).split("\\").join("/");
}
