import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectClient, revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDir, cliNodeArgs, execute, search, until } from "./__fixtures__/mcp-helpers.ts";
import { seedScript } from "./__fixtures__/scripts.ts";

describe.each(revisions)(
  "reference server over stdio (spawned CLI, %s)",
  { timeout: 60_000 },
  (revision) => {
    let client: TestClient;
    let dataDir: string;
    let stderr = "";

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-stdio-"));
      // A spawned child: the CLI from source, as an MCP client such as Claude Desktop would start it.
      const connected = await connectClient(revision, {
        kind: "stdio",
        command: process.execPath,
        args: [...cliNodeArgs, "--stdio", "--data-dir", dataDir],
        cwd: appDir,
      });
      connected.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      client = connected.client;
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("announces itself on stderr, keeping stdout for MCP", async () => {
      await until(() => stderr.includes("MCP over stdio"));
      expect(stderr).toMatch(/dcc reference server \(simulated Maya\) ready: MCP over stdio/);
    });

    it("lists the two tools and searches the catalog", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
      expect((await search(client, "move objects")).results.map((record) => record.name)).toContain(
        "move",
      );
    });

    it("runs the seed example and lists the spheres", async () => {
      expect(await execute(client, seedScript)).toMatchObject({
        success: true,
        output: { created: 5 },
      });
      const listed = await execute(client, 'return dispatch("ls", { type: "transform" });');
      expect(listed.output).toEqual(["pSphere1", "pSphere2", "pSphere3", "pSphere4", "pSphere5"]);
    });

    it("reports a command error", async () => {
      const result = await execute(client, 'dispatch("select", ["nothingHere"]);');
      expect(result).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
      expect(result["error"]).toMatch(/No object matches name: nothingHere/);
    });

    it("cancels a running script and rolls it back", async () => {
      const meshes = 'return dispatch("ls", { type: "mesh" }).length;';
      const before = (await execute(client, meshes)).output;
      const controller = new AbortController();
      let reported = 0;
      const running = execute(
        client,
        'for (let i = 1; ; i++) { dispatch("polyCube"); progress(i); const until = Date.now() + 2; while (Date.now() < until) {} }',
        {},
        {
          signal: controller.signal,
          onprogress: (update) => {
            reported = update.progress;
            if (reported > 3) controller.abort("stop");
          },
        },
      );
      await expect(running).rejects.toThrow();
      expect(reported).toBeGreaterThan(3);
      const result = await execute(client, meshes);
      expect(result).toMatchObject({ success: true, output: before });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await execute(client, meshes)).output).toBe(before);
    });
  },
);
