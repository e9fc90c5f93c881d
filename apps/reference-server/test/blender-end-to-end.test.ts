import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestClient } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import {
  connectHttp,
  execute,
  processAlive,
  search,
  spawnCli,
  startupUrl,
  stopCli,
  until,
} from "./__fixtures__/mcp-helpers.ts";

describeWithBlender(`the reference server serving Blender over Streamable HTTP`, () => {
  let server: ReferenceServer;
  let client: TestClient;
  let dataDir: string;
  beforeAll(async () => {
    assertBlender();
    dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-blender-"));
    server = await createReferenceServer({ port: 0, dcc: ["blender"], dataDir });
    client = await connectHttp(server.url as string);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists dcc_search and dcc_execute, and finds operators by what they do", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    expect(client.getInstructions()).toMatch(/real Blender/);
    const found = await search(client, "add a sphere", 5);
    expect(found.results.map((result) => result.name)).toContain("mesh.primitive_uv_sphere_add");
  });

  it("runs the seed's pattern verbatim and saves a .blend another Blender opens as left", async () => {
    const made = await execute(
      client,
      'for (let i = 0; i < 5; i++) dispatch("mesh.primitive_uv_sphere_add", { location: [i, 0, 0] }); return { created: 5 };',
    );
    expect(made).toMatchObject({ success: true, output: { created: 5 } });
    const saved = await execute(
      client,
      'return dispatch("wm.save_as_mainfile", { filepath: "spheres.blend" }).result;',
    );
    expect(saved).toMatchObject({ success: true, output: ["FINISHED"] });
    const check = spawnSync(
      "blender",
      [
        "-b",
        "--factory-startup",
        "--disable-autoexec",
        join(dataDir, "spheres.blend"),
        "--python-expr",
        'import bpy, json; print("SPHERES " + json.dumps(sorted([list(o.location) for o in bpy.data.objects if o.name.startswith("Sphere")])))',
      ],
      { encoding: "utf8", timeout: 180_000 },
    );
    const line = /SPHERES (.*)/.exec(check.stdout)?.[1];
    expect(line, check.stderr).toBeDefined();
    expect(JSON.parse(line as string)).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
      [3, 0, 0],
      [4, 0, 0],
    ]);
  });
});

describeWithBlender(`the reference server serving Maya and Blender together`, () => {
  let server: ReferenceServer;
  let client: TestClient;
  let dataDir: string;
  beforeAll(async () => {
    assertBlender();
    dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-both-"));
    server = await createReferenceServer({ port: 0, dcc: ["maya", "blender"], dataDir });
    client = await connectHttp(server.url as string);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives each DCC its own pair, and one keeps answering while a script on the other is cancelled", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "blender_execute",
      "blender_search",
      "maya_execute",
      "maya_search",
    ]);
    const controller = new AbortController();
    const running = client
      .callTool(
        {
          name: "blender_execute",
          arguments: {
            code: 'for (let i = 0; i < 100000; i++) { dispatch("mesh.primitive_cube_add", {}); console.log(i); } return "done";',
          },
        },
        { signal: controller.signal, timeout: 280_000 },
      )
      .catch((error: unknown) => error);
    const maya = await client.callTool({
      name: "maya_execute",
      arguments: { code: 'return dispatch("polySphere", { name: "ball" });' },
    });
    expect(maya.structuredContent).toMatchObject({ success: true });
    controller.abort("enough");
    expect(await running).toBeInstanceOf(Error);
    // The cancelled command stops on Blender first; until then Blender's tools say it is busy.
    let blender: Record<string, unknown> = {};
    await until(async () => {
      const answer = await client.callTool({
        name: "blender_execute",
        arguments: {
          code: 'try { return dispatch("data.list", { collection: "cameras" }).length; } catch (e) { return e.code; }',
        },
      });
      blender = answer.structuredContent as Record<string, unknown>;
      return blender["output"] !== "HOST_BUSY";
    }, 120_000);
    expect(blender).toMatchObject({ success: true, output: 1 });
  });
});

/** The Blender session folders of the CLI's children (from their environment). */
function blenderSessions(parent: number): { pid: number; sessionDir: string }[] {
  const found: { pid: number; sessionDir: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = /PPid:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1];
      if (Number(ppid) !== parent) continue;
      const env = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      // The link's socket is in the session folder (sandboxed or not).
      const socket = env.find((line) => line.startsWith("DCC_LINK_SOCKET="))?.slice(16);
      if (socket !== undefined) found.push({ pid: Number(entry), sessionDir: dirname(socket) });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

describeWithBlender(`the CLI serving Blender, stopped`, () => {
  beforeAll(() => assertBlender());

  it.each(["SIGTERM", "SIGINT"] as const)(
    "by %s leaves no Blender, socket or session folder",
    async (signal) => {
      const dataDir = mkdtempSync(join(tmpdir(), "dcc-cli-blender-"));
      const cli = spawnCli(["--dcc", "blender", "--port", "0", "--data-dir", dataDir]);
      try {
        await startupUrl(cli);
        const sessions = blenderSessions(cli.child.pid as number);
        expect(sessions).toHaveLength(1);
        const [{ pid, sessionDir }] = sessions as [{ pid: number; sessionDir: string }];
        expect(existsSync(sessionDir)).toBe(true);
        expect(await stopCli(cli, signal)).toBe(0);
        await until(() => !processAlive(pid), 60_000);
        expect(existsSync(sessionDir)).toBe(false);
      } finally {
        if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe("the CLI with --dcc blender and no Blender", () => {
  it("refuses to start, saying how to install Blender", async () => {
    const cli = spawnCli(["--dcc", "blender", "--port", "0", "--data-dir", tmpdir()], {
      BLENDER_BIN: "/nonexistent/blender",
    });
    const code = await Promise.race([
      cli.exited,
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 240_000)),
    ]);
    if (code === "timeout") cli.child.kill("SIGKILL");
    expect(code).toBe(1);
    expect(cli.stderr()).toMatch(
      /could not start: .*blender was not found.*apt-get install -y blender/s,
    );
  });
});
