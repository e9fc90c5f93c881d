// Every package README (under packages/ and examples/) opens with an "## Install" section whose
// first TypeScript block is a short example that runs as written. Each runs in its own Node
// process from a scratch folder inside this package, where every workspace package resolves.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { readWorkspacePackages } from "./workspace.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const here = resolve(import.meta.dirname, "..");
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The first `## ` heading and the first ```ts block under it. */
function installExample(readme: string): { heading: string | undefined; code: string | undefined } {
  const heading = /^## (.+)$/m.exec(readme);
  if (heading === null) return { heading: undefined, code: undefined };
  const rest = readme.slice(heading.index);
  const next = rest.slice(3).search(/^## /m);
  const section = next === -1 ? rest : rest.slice(0, next + 3);
  return { heading: heading[1], code: /```ts[^\n]*\n([\s\S]*?)```/.exec(section)?.[1] };
}

const packages = readWorkspacePackages(root).filter(
  (pkg) => !pkg.directory.startsWith(join(root, "apps")),
);

describe.each(packages)("$name README", ({ name, directory }) => {
  const readme = readFileSync(join(directory, "README.md"), "utf8");
  const { heading, code } = installExample(readme);

  it("starts with Install and a short example", () => {
    expect(heading).toBe("Install");
    expect(code, "a ```ts block under ## Install").toBeDefined();
    const lines = (code ?? "").split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(code).toContain(`from "${name}"`);
  });

  it("runs its example as written", { timeout: 180_000 }, async () => {
    mkdirSync(join(here, ".vitest"), { recursive: true });
    const folder = mkdtempSync(join(here, ".vitest", "readme-"));
    scratch.push(folder);
    const file = join(folder, "example.ts");
    writeFileSync(file, code ?? "");
    const { stdout } = await run(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", file],
      { cwd: here, timeout: 150_000 },
    );
    expect(stdout.trim()).not.toBe("");
  });
});
