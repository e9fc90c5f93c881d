// The reference server with `--ask delete`, against the simulated Maya and the Maya stand-in
// (the real Maya side, played by @dcc/maya's strict stand-in mayapy), on both protocol revisions
// with the real SDK clients: the v1 client answers elicitation/create, the v2 client answers the
// input_required rounds of the call.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  connectClient,
  type ElicitAnswer,
  type ElicitParams,
  type Revision,
  revisions,
  type TestClient,
} from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { appDir, cliNodeArgs, spawnCli, startupUrl, stopCli } from "./__fixtures__/mcp-helpers.ts";

const mayaPackage = new URL("../../../packages/maya/", import.meta.url);
const standInMayapy = fileURLToPath(new URL("python/tests/stand_in/bin/mayapy", mayaPackage));
const commandsData = fileURLToPath(new URL("../../../shared/data/maya-commands.json", mayaPackage));
interface StandInScene {
  readonly url: string;
  close(): Promise<void>;
}
async function startStandInScene(options: { dataDir: string }): Promise<StandInScene> {
  const support = (await import(new URL("test/support/stand-in-scene.ts", mayaPackage).href)) as {
    startStandInScene(options: { dataDir: string }): Promise<StandInScene>;
  };
  return support.startStandInScene(options);
}

/** Answers every question with `answer`, recording what was asked. */
async function connect(
  server: ReferenceServer,
  revision: Revision,
  answer: () => ElicitAnswer,
): Promise<{ client: TestClient; asked: ElicitParams[] }> {
  const asked: ElicitParams[] = [];
  const { client } = await connectClient(
    revision,
    { kind: "http", url: server.url as string },
    {
      onElicit: async (params) => {
        asked.push(params);
        return answer();
      },
    },
  );
  return { client, asked };
}

async function execute(client: TestClient, code: string): Promise<Record<string, unknown>> {
  const result = await client.callTool(
    { name: "dcc_execute", arguments: { code } },
    { timeout: 120_000 },
  );
  return result.structuredContent as Record<string, unknown>;
}

const yes = (): ElicitAnswer => ({ action: "accept", content: { approve: true } });
const no = (): ElicitAnswer => ({ action: "decline" });

// Three spheres, deleted in one call and then one by one: one question for the script.
const deleteSpheres = `
  const made = [0, 1, 2].map((i) => dispatch("polySphere", { name: "ball" + i })[0]);
  let outcome;
  try {
    dispatch("delete", made);
    outcome = "deleted";
  } catch (error) {
    outcome = error.code + " " + error.data.rule + " " + error.data.reason;
  }
  return { made, outcome, left: dispatch("ls", { type: "transform" }) };`;

function behavesUnderAskDelete(name: string, start: () => Promise<ReferenceServer>): void {
  describe.each(revisions)(`${name} with --ask delete (%s)`, { timeout: 180_000 }, (revision) => {
    let server: ReferenceServer;
    const clients: TestClient[] = [];
    beforeAll(async () => {
      server = await start();
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
    });
    afterAll(async () => {
      await server?.close();
    });

    it("asks once, naming the nodes, and deletes them on yes", async () => {
      const { client, asked } = await connect(server, revision, yes);
      clients.push(client);
      const result = await execute(client, deleteSpheres);
      expect(result["success"]).toBe(true);
      const output = result["output"] as { made: string[]; outcome: string; left: string[] };
      expect(output.outcome).toBe("deleted");
      for (const node of output.made) expect(output.left).not.toContain(node);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.message).toContain(`delete 3 nodes: ${output.made.join(", ")}`);
    });

    it("keeps the nodes on no, with a catchable APPROVAL_DENIED", async () => {
      const { client, asked } = await connect(server, revision, no);
      clients.push(client);
      const result = await execute(client, deleteSpheres);
      const output = result["output"] as { made: string[]; outcome: string; left: string[] };
      expect(output.outcome).toBe("APPROVAL_DENIED delete declined");
      for (const node of output.made) expect(output.left).toContain(node);
      expect(asked).toHaveLength(1);
    });

    it("asks nothing for commands outside the rule", async () => {
      const { client, asked } = await connect(server, revision, yes);
      clients.push(client);
      const result = await execute(
        client,
        'const made = dispatch("polyCube", { name: "crate" }); dispatch("move", [1, 2, 3, made[0]]); return made;',
      );
      expect(result["success"]).toBe(true);
      expect(asked).toHaveLength(0);
    });

    it("denies at once, saying why, for a client that cannot ask anybody", async () => {
      const { client } = await connectClient(revision, {
        kind: "http",
        url: server.url as string,
      });
      clients.push(client);
      const result = await execute(client, deleteSpheres);
      const output = result["output"] as { outcome: string; made: string[]; left: string[] };
      expect(output.outcome).toBe("APPROVAL_DENIED delete unanswerable");
      for (const node of output.made) expect(output.left).toContain(node);
    });
  });
}

behavesUnderAskDelete("the simulated Maya", () =>
  createReferenceServer({ port: 0, approval: { ask: ["delete"] } }),
);

describe("the Maya stand-in", () => {
  let scene: StandInScene;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-ask-maya-"));
    scene = await startStandInScene({ dataDir });
    process.env["DCC_MAYA_STAND_IN_SCENE"] = scene.url;
    process.env["DCC_MAYA_STAND_IN_COMMANDS"] = commandsData;
    // The stand-in mayapy talks to a scene server on loopback: the OS sandbox would hide it.
    process.env["DCC_SANDBOX"] = "off";
  });
  afterAll(async () => {
    await scene?.close();
    delete process.env["DCC_MAYA_STAND_IN_SCENE"];
    delete process.env["DCC_MAYA_STAND_IN_COMMANDS"];
    delete process.env["DCC_SANDBOX"];
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });
  behavesUnderAskDelete("the Maya stand-in", () =>
    createReferenceServer({
      port: 0,
      dcc: ["maya"],
      maya: { kind: "mayapy", path: standInMayapy },
      dataDir,
      approval: { ask: ["delete"] },
    }),
  );
});

describe.each(revisions)(
  "the CLI over stdio with --ask delete (%s)",
  { timeout: 120_000 },
  (revision) => {
    it("asks the client that started it, and deletes on yes", async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-ask-stdio-"));
      const asked: ElicitParams[] = [];
      const { client } = await connectClient(
        revision,
        {
          kind: "stdio",
          command: process.execPath,
          args: [...cliNodeArgs, "--stdio", "--data-dir", dataDir, "--ask", "delete"],
          cwd: appDir,
        },
        {
          onElicit: async (params) => {
            asked.push(params);
            return yes();
          },
        },
      );
      try {
        const result = await execute(client, deleteSpheres);
        expect((result["output"] as { outcome: string }).outcome).toBe("deleted");
        expect(asked).toHaveLength(1);
        expect(asked[0]?.message).toContain("delete 3 nodes: ball0, ball1, ball2");
      } finally {
        await client.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  },
);

describe("the CLI", { timeout: 120_000 }, () => {
  it("takes --ask delete and asks before a delete", async () => {
    const cli = spawnCli(["--port", "0", "--ask", "delete"]);
    try {
      const url = await startupUrl(cli);
      const asked: ElicitParams[] = [];
      const { client } = await connectClient(
        "2025-11-25",
        { kind: "http", url },
        {
          onElicit: async (params) => {
            asked.push(params);
            return { action: "decline" };
          },
        },
      );
      try {
        const result = await execute(client, deleteSpheres);
        expect((result["output"] as { outcome: string }).outcome).toBe(
          "APPROVAL_DENIED delete declined",
        );
        expect(asked).toHaveLength(1);
      } finally {
        await client.close();
      }
    } finally {
      await stopCli(cli);
    }
  });
});

// A real Blender (the host's), with every rule on: the selection's deletion is asked about by
// name, and declining it leaves the objects.
describeWithBlender("a real Blender with --ask delete", { timeout: 300_000 }, () => {
  describe.each(revisions)("(%s)", (revision) => {
    let server: ReferenceServer;
    let dataDir: string;
    const clients: TestClient[] = [];
    beforeAll(async () => {
      assertBlender();
      dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-ask-blender-"));
      server = await createReferenceServer({
        port: 0,
        dcc: ["blender"],
        dataDir,
        approval: { ask: ["delete"] },
      });
    }, 300_000);
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
    });
    afterAll(async () => {
      await server?.close();
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    });

    const deleteAll = `
      const before = dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();
      dispatch("object.select_all", { action: "SELECT" });
      let outcome;
      try { dispatch("object.delete"); outcome = "deleted"; }
      catch (error) { outcome = error.code + " " + error.data.rule + " " + error.data.reason; }
      return { before, outcome, after: dispatch("data.list", { collection: "objects" }).length };`;

    it("keeps the objects on no, naming them in the one question", async () => {
      const { client, asked } = await connect(server, revision, no);
      clients.push(client);
      const result = await execute(client, deleteAll);
      const output = result["output"] as { before: string[]; outcome: string; after: number };
      expect(output.before.length).toBeGreaterThan(0);
      expect(output.outcome).toBe("APPROVAL_DENIED delete declined");
      expect(output.after).toBe(output.before.length);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.message).toContain(
        `delete ${output.before.length} objects: ${output.before.join(", ")}`,
      );
    });

    it("deletes them on yes", async () => {
      const { client, asked } = await connect(server, revision, yes);
      clients.push(client);
      const result = await execute(client, deleteAll);
      expect(result["output"]).toMatchObject({ outcome: "deleted", after: 0 });
      expect(asked).toHaveLength(1);
    });
  });
});
