// The official MCP conformance suite against the reference server, for both revisions the
// server speaks. The suite needs Node 22, so it runs on the pinned Node 22 binary that
// `@dcc/node22` brings from the npm registry; the server itself runs in this process on the
// product's Node. Each revision has a committed baseline of the scenarios that cannot
// pass on a two-tool server (they call the suite's own test tools, prompts or resources); the
// suite fails on any other failure and on a baseline entry that starts passing.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { node22Binary } from "@dcc/node22";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { appDir } from "./__fixtures__/mcp-helpers.ts";

const require = createRequire(import.meta.url);
const suite = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);
// The npm package of the Node 22 binary is for linux-x64 only; elsewhere it is not installed.
const supported = node22Binary !== undefined;
const node22 = node22Binary ?? "node";

interface SuiteRun {
  code: number | null;
  output: string;
}

/** Runs the suite once, bounded; its result files go to `outputDir`. */
function runSuite(args: string[], outputDir: string, timeoutMs: number): Promise<SuiteRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [suite, ...args, "-o", outputDir], {
      cwd: outputDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!supported)("the official conformance suite", { timeout: 300_000 }, () => {
  let server: ReferenceServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-conformance-data-"));
    server = await createReferenceServer({ port: 0, dataDir });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs on Node 22 from the npm registry", async () => {
    const version = await new Promise<string>((resolve, reject) => {
      const child = spawn(node22, ["--version"], { stdio: ["ignore", "pipe", "inherit"] });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.on("error", reject);
      child.on("close", () => resolve(text.trim()));
    });
    expect(version).toMatch(/^v22\./);
  });

  it.each(["2026-07-28", "2025-11-25"])(
    "passes every scenario --requirements %s scores, apart from its baseline",
    async (revision) => {
      const outputDir = mkdtempSync(join(tmpdir(), "dcc-conformance-"));
      try {
        const baseline = join(appDir, "conformance", `baseline-${revision}.yml`);
        const run = await runSuite(
          [
            "server",
            "--url",
            server.url as string,
            "--requirements",
            revision,
            "--expected-failures",
            baseline,
          ],
          outputDir,
          240_000,
        );
        // The output names each unexpected failure and each stale baseline entry.
        expect(run.output).not.toMatch(/Unexpected failures|Stale|stale/);
        expect(run.output).toContain("Baseline check passed");
        expect(run.code, run.output).toBe(0);
      } finally {
        rmSync(outputDir, { recursive: true, force: true });
      }
    },
  );
});
