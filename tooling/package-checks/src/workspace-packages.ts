// The workspace's packages as the checks see them: every folder with a package.json under
// packages/, apps/ and examples/, so a new package is covered without a list to update.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A workspace package: its manifest and folder. */
export interface WorkspacePackage {
  name: string;
  directory: string;
  manifest: Record<string, unknown>;
  /** Published to npm (`private` is not `true`). */
  publishable: boolean;
}

/** Every package under `packages/`, `apps/` and `examples/` of `root`, sorted by name. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "apps", "examples"]) {
    const folder = join(root, group);
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder)) {
      const directory = join(folder, entry);
      const manifestPath = join(directory, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
      const name = String(manifest["name"]);
      found.push({ name, directory, manifest, publishable: manifest["private"] !== true });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** A package's `bin` entries as name → path inside the package. */
export function binEntries(manifest: Record<string, unknown>): Array<[string, string]> {
  const bin = manifest["bin"];
  if (typeof bin === "string") return [[String(manifest["name"]).split("/").pop() ?? "", bin]];
  if (bin === null || typeof bin !== "object") return [];
  return Object.entries(bin as Record<string, string>);
}
