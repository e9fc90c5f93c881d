import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkspacePackages } from "./workspace.ts";

const root = resolve(import.meta.dirname, "../../..");

describe.each(readWorkspacePackages(root))(
  "$name package.json",
  ({ name, directory, manifest }) => {
    const exportsField = manifest["exports"] as Record<string, Record<string, string>>;

    it("is ESM-only and side-effect free", () => {
      expect(manifest["type"]).toBe("module");
      expect(manifest["sideEffects"]).toBe(false);
    });

    it("resolves the source condition first, then dist", () => {
      const main = exportsField["."] as Record<string, string>;
      expect(Object.keys(main)).toEqual(["@dcc/source", "types", "default"]);
      expect(existsSync(join(directory, main["@dcc/source"] as string))).toBe(true);
      expect(main["types"]).toBe("./dist/index.d.ts");
      expect(main["default"]).toBe("./dist/index.js");
    });

    it("publishes dist only, with dist exports", () => {
      expect(manifest["files"]).toContain("dist");
      if (manifest["private"] === true) return;
      const publish = manifest["publishConfig"] as {
        exports: Record<string, unknown>;
        access: string;
      };
      expect(publish.access).toBe("public");
      expect(JSON.stringify(publish.exports)).not.toContain("src/");
    });

    it("declares internal dependencies as workspace ranges", () => {
      const deps = { ...(manifest["dependencies"] as Record<string, string> | undefined) };
      for (const [dep, range] of Object.entries(deps)) {
        if (dep.startsWith("@dcc/")) expect(range, `${name} → ${dep}`).toBe("workspace:^");
        else expect(range, `${name} → ${dep} must be pinned exactly`).toMatch(/^\d+\.\d+\.\d+/);
      }
    });
  },
);
