// The built package, as the bridge and the app load it: plain Node, no tsx, workers started from
// dist/internal/sandbox-worker.js. Runs in a child process so nothing from vitest leaks in.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = resolve(import.meta.dirname, "..");
const tsc = resolve(packageDir, "../../node_modules/.bin/tsc");

beforeAll(async () => {
  await run(tsc, ["-b"], { cwd: packageDir, timeout: 120_000 });
}, 150_000);

const script = `
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from ${JSON.stringify(pathToFileURL(resolve(packageDir, "dist/index.js")).href)};
const registry = new ToolRegistry().register({ name: "add", handler: ({ a, b }) => a + b });
const executor = new DccApiExecutor("maya", { dispatcher: new ToolDispatcher(registry) });
const results = [
  await executor.execute("const n: number = dispatch('add', { a: 2, b: 3 });\\nreturn n * 2;"),
  await executor.execute("while (true) {}", { timeoutSecs: 1 }),
  await executor.execute("return 'after timeout'"),
];
process.stdout.write(JSON.stringify(results.map((r) => r.success ? r.output : r.errorCode + ": " + r.error)));
// No close(): idle workers are unref'd, so the process must still exit on its own.
`;

describe("the built package", () => {
  it("runs scripts from dist with plain Node and lets the process exit", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: packageDir,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual([
      10,
      "TIMEOUT: Script exceeded the 1s timeout",
      "after timeout",
    ]);
  }, 90_000);
});

// CommonJS modules imported from ESM land in the require cache, so it shows what was loaded.
const loadedScript = (after: string) => `
const executor = await import(${JSON.stringify(pathToFileURL(resolve(packageDir, "dist/index.js")).href)});
${after}
const { createRequire } = await import("node:module");
const loaded = new Set();
for (const file of Object.keys(createRequire(import.meta.url).cache)) {
  const match = /[\\\\/]node_modules[\\\\/](ajv|sucrase|@babel[\\\\/]parser)[\\\\/]/.exec(file);
  if (match) loaded.add(match[1].replace("\\\\", "/"));
}
process.stdout.write(JSON.stringify([...loaded].sort()));
`;

describe("importing the built package", () => {
  it("loads Babel, sucrase and ajv only when a code path needs them", async () => {
    const loaded = async (after: string) =>
      JSON.parse(
        (
          await run(process.execPath, ["--input-type=module", "-e", loadedScript(after)], {
            cwd: packageDir,
            timeout: 60_000,
          })
        ).stdout,
      );
    expect(await loaded("")).toEqual([]);
    expect(
      await loaded(
        `new executor.ToolRegistry().register({ name: "a", handler: () => 1, argsSchema: { type: "object" } });`,
      ),
    ).toEqual(["ajv"]);
    expect(await loaded(`executor.isEntryPointScript("function main() {}");`)).toEqual([
      "@babel/parser",
    ]);
  }, 90_000);
});
