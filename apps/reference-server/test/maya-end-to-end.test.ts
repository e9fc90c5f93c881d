// The reference server serving a real Maya's side over MCP: `--dcc maya` with a `mayapy`
// configured, played here by the stand-in `mayapy` of @dcc/maya's tests (plain python3 with a
// strict stand-in `maya` package whose calls a simulated scene answers). Not a licensed Maya.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import {
  connectHttp,
  execute,
  search,
  spawnCli,
  startupUrl,
  stopCli,
} from "./__fixtures__/mcp-helpers.ts";

// @dcc/maya's test support (the stand-in and the scene server behind it), loaded by URL: it is
// another package's test code, outside this package's sources.
const mayaPackage = new URL("../../../packages/maya/", import.meta.url);
const standInMayapy = fileURLToPath(new URL("python/tests/stand_in/bin/mayapy", mayaPackage));
const commandsData = fileURLToPath(new URL("../../../shared/data/maya-commands.json", mayaPackage));
interface StandInScene {
  readonly url: string;
  readonly calls: string[];
  close(): Promise<void>;
}
async function startStandInScene(options: { dataDir: string }): Promise<StandInScene> {
  const support = (await import(new URL("test/support/stand-in-scene.ts", mayaPackage).href)) as {
    startStandInScene(options: { dataDir: string }): Promise<StandInScene>;
  };
  return support.startStandInScene(options);
}

describe("the reference server serving Maya through mayapy (stand-in)", () => {
  let server: ReferenceServer;
  let client: TestClient;
  let scene: StandInScene;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-maya-"));
    scene = await startStandInScene({ dataDir });
    // The stand-in reads these; mayapy inherits the server's environment.
    process.env["DCC_MAYA_STAND_IN_SCENE"] = scene.url;
    process.env["DCC_MAYA_STAND_IN_COMMANDS"] = commandsData;
    // The stand-in mayapy is python3 through a version manager's shim, talking to a scene
    // server on loopback TCP: @dcc/link's OS sandbox would hide both.
    process.env["DCC_SANDBOX"] = "off";
    server = await createReferenceServer({
      port: 0,
      dcc: ["maya"],
      maya: { kind: "mayapy", path: standInMayapy },
      dataDir,
    });
    client = await connectHttp(server.url as string);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await scene?.close();
    delete process.env["DCC_MAYA_STAND_IN_SCENE"];
    delete process.env["DCC_MAYA_STAND_IN_COMMANDS"];
    delete process.env["DCC_SANDBOX"];
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists dcc_search and dcc_execute and says it is a real Maya", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    expect(client.getInstructions()).toMatch(/real Autodesk Maya \(headless mayapy\)/);
    const found = await search(client, "create sphere", 5);
    expect(found.results.map((result) => result.name)).toContain("polySphere");
  });

  it("runs the seed's pattern verbatim", async () => {
    const made = await execute(
      client,
      'for (let i = 0; i < 5; i++) dispatch("polySphere", { position: [i, 0, 0] }); return { created: 5 };',
    );
    expect(made).toMatchObject({ success: true, output: { created: 5 } });
    const placed = await execute(
      client,
      'return dispatch("ls", { type: "transform" }).map((name) => dispatch("getAttr", [name + ".translateX"]));',
    );
    expect(placed).toMatchObject({ success: true, output: [0, 1, 2, 3, 4] });
  });

  it("refuses code-carrying flags over MCP, naming the rule", async () => {
    const refused = await execute(
      client,
      'try { dispatch("scriptJob", { idleEvent: "print(1)" }); } catch (e) { return [e.code, e.data.rule]; }',
    );
    expect(refused).toMatchObject({ success: true, output: ["POLICY", "runs-code"] });
  });
});

interface StandInGui {
  command(line: string): Promise<void>;
  close(): Promise<void>;
}

describe("the reference server attached to a Maya running the plug-in (stand-in)", () => {
  it("serves the user's Maya through its connection file", async () => {
    const root = mkdtempSync(join(tmpdir(), "dcc-e2e-maya-attach-"));
    const scene = await startStandInScene({ dataDir: join(root, "data") });
    const gui = (await import(new URL("test/support/stand-in-gui.ts", mayaPackage).href)) as {
      startStandInGui(env: Record<string, string>): Promise<StandInGui>;
    };
    const maya = await gui.startStandInGui({
      DCC_MAYA_DATA_DIR: join(root, "data"),
      DCC_MAYA_LINK_DIR: join(root, "link"),
      DCC_MAYA_STAND_IN_SCENE: scene.url,
      DCC_MAYA_STAND_IN_COMMANDS: commandsData,
    });
    let server: ReferenceServer | undefined;
    let client: TestClient | undefined;
    try {
      await maya.command(
        `load ${fileURLToPath(new URL("python/plug-ins/dcc_maya_link.py", mayaPackage))}`,
      );
      server = await createReferenceServer({
        port: 0,
        dcc: ["maya"],
        maya: { kind: "attach", connectionFile: join(root, "link", "connection.json") },
      });
      client = await connectHttp(server.url as string);
      expect(client.getInstructions()).toMatch(/the user's own, through the dcc_maya_link plug-in/);
      const made = await execute(
        client,
        'for (let i = 0; i < 3; i++) dispatch("polySphere", { position: [i, 0, 0] }); return dispatch("ls", { type: "transform" });',
      );
      expect(made).toMatchObject({ success: true, output: ["pSphere1", "pSphere2", "pSphere3"] });
    } finally {
      await client?.close();
      await server?.close();
      await maya.close();
      await scene.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the CLI with --maya", () => {
  it("says which Maya it serves, and refuses to start without one", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-maya-cli-"));
    try {
      const missing = spawnCli([
        "--port",
        "0",
        "--maya",
        "/nonexistent/mayapy",
        "--data-dir",
        dataDir,
      ]);
      expect(await missing.exited).toBe(1);
      expect(missing.stderr()).toMatch(
        /could not start: maya did not start: mayapy .*\/nonexistent\/mayapy.*MAYAPY_BIN/s,
      );

      const cli = spawnCli(["--port", "0", "--maya", standInMayapy, "--data-dir", dataDir], {
        DCC_MAYA_STAND_IN_COMMANDS: commandsData,
        DCC_SANDBOX: "off", // the stand-in's python3 shim is outside what the sandbox shows
      });
      try {
        await startupUrl(cli);
        expect(cli.stderr()).toMatch(/dcc reference server \(Maya \(mayapy\)\) ready/);
      } finally {
        await stopCli(cli);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
