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
