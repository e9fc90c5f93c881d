import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkspacePackages } from "./workspace.ts";

const root = resolve(import.meta.dirname, "../../..");

/** Names an index file exports, split into values and types, read from its `export { … }` lists. */
function exportedNames(indexSource: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  for (const match of indexSource.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from/g)) {
    const list = (match[2] ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    for (const item of list) {
      const isType = Boolean(match[1]) || item.startsWith("type ");
      const name = item
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop() as string;
      (isType ? types : values).push(name);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

describe.each(readWorkspacePackages(root))("$name public API", ({ name, directory, manifest }) => {
  const indexSource = readFileSync(join(directory, "src/index.ts"), "utf8");

  it("uses named exports only", () => {
    expect(indexSource).not.toMatch(/export\s+\*/);
    expect(indexSource).not.toMatch(/export\s+default/);
  });

  it("matches the pinned surface (update the pin together with a changeset)", async () => {
    const module = (await import(/* @vite-ignore */ name)) as Record<string, unknown>;
    const declared = exportedNames(indexSource);
    // Every value the index lists really exists at run time.
    expect(Object.keys(module).sort()).toEqual(declared.values);
    const exportsMap = manifest["exports"] as Record<string, unknown>;
    // Subpath entries (`@dcc/mcp-bridge/audit`) are public surface too: pinned the same way.
    const subpaths: Record<string, { values: string[]; types: string[] }> = {};
    for (const [subpath, target] of Object.entries(exportsMap)) {
      const source = (target as Record<string, unknown> | null)?.["@dcc/source"];
      if (subpath === "." || typeof source !== "string") continue;
      const entrySource = readFileSync(join(directory, source), "utf8");
      expect(entrySource).not.toMatch(/export\s+\*/);
      const entry = exportedNames(entrySource);
      const loaded = (await import(/* @vite-ignore */ `${name}${subpath.slice(1)}`)) as Record<
        string,
        unknown
      >;
      expect(Object.keys(loaded).sort()).toEqual(entry.values);
      subpaths[subpath] = entry;
    }
    const surface = {
      exports: Object.keys(exportsMap),
      values: declared.values,
      types: declared.types,
      ...(Object.keys(subpaths).length === 0 ? {} : { subpaths }),
    };
    const file = `${name.replace("@dcc/", "")}.json`;
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot(join("../api", file));
  });
});
