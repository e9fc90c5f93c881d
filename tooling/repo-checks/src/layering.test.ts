import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findLayeringViolations } from "./layering.ts";
import { readWorkspacePackages } from "./workspace.ts";

const root = resolve(import.meta.dirname, "../../..");
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Copies the manifests and sources of the real workspace into a scratch folder. */
function copyWorkspace(): string {
  const target = mkdtempSync(join(tmpdir(), "dcc-layering-"));
  scratch.push(target);
  for (const pkg of readWorkspacePackages(root)) {
    const relative = pkg.directory.slice(root.length + 1);
    cpSync(join(pkg.directory, "package.json"), join(target, relative, "package.json"));
    cpSync(join(pkg.directory, "src"), join(target, relative, "src"), { recursive: true });
  }
  return target;
}

describe("layering", () => {
  it("holds in this repository", () => {
    expect(
      readWorkspacePackages(root)
        .map((p) => p.name)
        .sort(),
    ).toEqual([
      "@dcc/blender",
      "@dcc/cancel",
      "@dcc/catalog",
      "@dcc/example-echo",
      "@dcc/example-linked",
      "@dcc/executor",
      "@dcc/farm",
      "@dcc/link",
      "@dcc/linked-adapter",
      "@dcc/maya",
      "@dcc/mcp-bridge",
      "@dcc/reference-server",
    ]);
    expect(findLayeringViolations(root)).toEqual([]);
  });

  it("fails when @dcc/cancel imports @dcc/mcp-bridge", () => {
    const copy = copyWorkspace();
    writeFileSync(
      join(copy, "packages/cancel/src/upward.ts"),
      'import { registerDccApiExecutor } from "@dcc/mcp-bridge";\nexport const x = registerDccApiExecutor;\n',
    );
    expect(findLayeringViolations(copy)).toEqual([
      "@dcc/cancel (layer 0) depends on @dcc/mcp-bridge (layer 5) in packages/cancel/src/upward.ts",
    ]);
  });

  it("fails when an adapter package reaches MCP code, or another adapter", () => {
    const copy = copyWorkspace();
    writeFileSync(
      join(copy, "packages/maya/src/serve.ts"),
      'import { createDccServer } from "@dcc/mcp-bridge";\nexport const serve = createDccServer;\nexport const b = () => import("@dcc/blender");\n',
    );
    expect(findLayeringViolations(copy)).toEqual([
      "@dcc/maya (layer 4) depends on @dcc/mcp-bridge (layer 5) in packages/maya/src/serve.ts",
      "@dcc/maya (layer 4) depends on @dcc/blender (layer 4) in packages/maya/src/serve.ts",
    ]);
  });

  it("fails on an upward or same-layer dependency declared in package.json", () => {
    const copy = copyWorkspace();
    const manifest = join(copy, "packages/catalog/package.json");
    writeFileSync(
      manifest,
      JSON.stringify({ name: "@dcc/catalog", devDependencies: { "@dcc/executor": "workspace:^" } }),
    );
    expect(findLayeringViolations(copy)).toContain(
      "@dcc/catalog (layer 1) depends on @dcc/executor (layer 2) in package.json devDependencies",
    );
  });

  it("keeps the Blender adapter off MCP code", () => {
    const copy = copyWorkspace();
    writeFileSync(
      join(copy, "packages/blender/src/mcp.ts"),
      'export { registerDccApiExecutor } from "@dcc/mcp-bridge";\n',
    );
    expect(findLayeringViolations(copy)).toEqual([
      "@dcc/blender (layer 4) depends on @dcc/mcp-bridge (layer 5) in packages/blender/src/mcp.ts",
    ]);
  });

  it("fails when @dcc/link imports @dcc/executor, which sits above it", () => {
    const copy = copyWorkspace();
    writeFileSync(
      join(copy, "packages/link/src/upward.ts"),
      'import { ToolDispatcher } from "@dcc/executor";\nexport const x = ToolDispatcher;\n',
    );
    expect(findLayeringViolations(copy)).toEqual([
      "@dcc/link (layer 1) depends on @dcc/executor (layer 2) in packages/link/src/upward.ts",
    ]);
  });

  it("catches dynamic imports too", () => {
    const copy = copyWorkspace();
    writeFileSync(
      join(copy, "packages/executor/src/late.ts"),
      'export const m = () => import("@dcc/reference-server");\n',
    );
    expect(findLayeringViolations(copy)).toHaveLength(1);
  });
});
