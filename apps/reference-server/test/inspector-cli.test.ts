import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { appDir } from "./__fixtures__/mcp-helpers.ts";

const run = promisify(execFile);
const inspector = join(appDir, "node_modules", ".bin", "mcp-inspector");

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ port: 0 });
});
afterAll(async () => {
  await server?.close();
});

async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await run(inspector, ["--cli", server.url as string, ...args], {
    timeout: 45_000,
  });
  return JSON.parse(stdout);
}

// @modelcontextprotocol/inspector 2.12.0 declares node >=22.19, but its CLI mode runs on Node 20.
describe("MCP Inspector CLI mode", { timeout: 60_000 }, () => {
  it("lists the two tools", async () => {
    const listed = (await inspect("--method", "tools/list")) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
  });

  it("calls dcc_search", async () => {
    const called = (await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "dcc_search",
      "--tool-arg",
      "query=create polygon sphere",
      "--tool-arg",
      "limit=5",
    )) as { structuredContent: { success: boolean; results: Array<{ name: string }> } };
    expect(called.structuredContent.success).toBe(true);
    expect(called.structuredContent.results.map((record) => record.name)).toContain("polySphere");
  });
});
