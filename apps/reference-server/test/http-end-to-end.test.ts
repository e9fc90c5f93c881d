import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import {
  connectHttp,
  type ExecuteOutcome,
  execute,
  search,
  until,
} from "./__fixtures__/mcp-helpers.ts";
import { carScript, seedScript } from "./__fixtures__/scripts.ts";

describe.each(revisions)("reference server over Streamable HTTP (%s)", (revision) => {
  let server: ReferenceServer;
  let client: TestClient;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "dcc-e2e-http-"));
    server = await createReferenceServer({ port: 0, dataDir });
    client = await connectHttp(server.url as string, undefined, revision);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function freshScene(): Promise<void> {
    const reset = await execute(
      client,
      'dispatch("file", { new: true, force: true }); return null;',
    );
    expect(reset.success).toBe(true);
  }

  it("lists exactly dcc_search and dcc_execute, and states the dispatch convention", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    const executeTool = tools.find((tool) => tool.name === "dcc_execute");
    expect(executeTool?.description).toMatch(
      /positional arguments .* go in args in Maya's order; a plain array means \{ args \}/,
    );
    expect(client.getServerVersion()?.name).toBe("dcc-reference-server");
    expect(client.getInstructions()).toMatch(/Simulated commands: .*polySphere.*xform/);
  });

  it("finds polySphere with dcc_search", async () => {
    const result = await search(client, "create polygon sphere", 5);
    expect(result.results.map((record) => record.name)).toContain("polySphere");
  });

  it("runs the seed's agent example verbatim, then lists the five spheres", async () => {
    await freshScene();
    const created = await execute(client, seedScript);
    expect(created).toMatchObject({
      success: true,
      output: { created: 5 },
      message: "Script executed successfully on maya.",
    });
    const listed = await execute(client, 'return dispatch("ls", { type: "transform" });');
    expect(listed.output).toEqual(["pSphere1", "pSphere2", "pSphere3", "pSphere4", "pSphere5"]);
    const positions = await execute(
      client,
      'return dispatch("ls", { type: "transform" }).map((name) => dispatch("getAttr", [name + ".translateX"]));',
    );
    expect(positions.output).toEqual([0, 1, 2, 3, 4]);
  });

  it("builds a 20-step scene and saves it in the data folder", async () => {
    const result = await execute(client, carScript);
    expect(result).toMatchObject({
      success: true,
      output: {
        car: "car",
        wheels: ["wheel1", "wheel2"],
        wheelAt25: [7.1, 0.4, -1.5],
        saved: "car.json",
      },
    });
    expect((result["stats"] as { dispatchCalls: number }).dispatchCalls).toBe(20);
    expect(existsSync(join(dataDir, "car.json"))).toBe(true);
    expect(readFileSync(join(dataDir, "car.json"), "utf8")).toContain('"name": "wheel2"');
    const check = await execute(
      client,
      `dispatch("file", { new: true, force: true });
       dispatch("file", { args: ["car.json"], open: true });
       return {
         long: dispatch("ls", { args: ["wheel*"], long: true, transforms: true }),
         material: dispatch("sets", { args: ["redSG"], query: true }),
         keys: dispatch("keyframe", { args: ["car"], query: true, keyframeCount: true }),
       };`,
    );
    expect(check.output).toEqual({
      long: ["|car|wheel1", "|car|wheel2"],
      material: ["bodyShape"],
      keys: 2,
    });
  });

  it("reports command errors with Maya's message and a code the script can catch", async () => {
    await freshScene();
    const uncaught = await execute(
      client,
      'dispatch("move", [1, 0, 0, "ghost"]); return "unreachable";',
    );
    expect(uncaught).toMatchObject({
      success: false,
      errorCode: "SCRIPT_ERROR",
      message: "Script failed on maya.",
    });
    expect(uncaught["error"]).toMatch(/No object matches name: ghost/);
    const caught = await execute(
      client,
      `const codes = [];
       for (const [name, args] of [["getAttr", ["nope.tx"]], ["polySphere", { bogus: 1 }], ["polyBevel", {}], ["notACommand", {}]]) {
         try { dispatch(name, args); } catch (error) { codes.push([error.code, error.command]); }
       }
       return codes;`,
    );
    expect(caught.output).toEqual([
      ["NO_OBJECT", "getAttr"],
      ["INVALID_FLAG", "polySphere"],
      ["NOT_IMPLEMENTED", "polyBevel"],
      ["UNKNOWN_COMMAND", "notACommand"],
    ]);
  });

  it("leaves the scene unchanged by a failed command", async () => {
    await freshScene();
    const result = await execute(
      client,
      `dispatch("polyCube");
       try { dispatch("setAttr", ["pCube1.translate", 1, 2]); } catch {}
       return dispatch("getAttr", ["pCube1.translate"]);`,
    );
    expect(result.output).toEqual([[0, 0, 0]]);
  });

  it("stops a running script when the client cancels the request, rolls it back, and no further command runs", async () => {
    await freshScene();
    const controller = new AbortController();
    let reported = 0;
    const running = execute(
      client,
      'for (let i = 1; ; i++) { dispatch("createNode", ["transform"]); progress(i); const until = Date.now() + 2; while (Date.now() < until) {} }',
      {},
      {
        signal: controller.signal,
        onprogress: (update) => {
          reported = update.progress;
          if (reported > 10) controller.abort("test cancels");
        },
      },
    );
    await expect(running).rejects.toThrow();
    expect(reported).toBeGreaterThan(10);
    // A cancelled script's rollback finishes before the next script reads the scene.
    const count = async (): Promise<number> =>
      (await execute(client, 'return dispatch("ls", { type: "transform" }).length;'))
        .output as number;
    expect(await count()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await count()).toBe(0);
  });

  it("rolls back a failed script, keeps it with keep_partial, and undoes a successful one in one step", async () => {
    await freshScene();
    await execute(client, 'dispatch("polyCube"); return null;');
    const failed = await execute(
      client,
      'dispatch("polySphere"); dispatch("move", [1, 2, 3, "pCube1"]); throw new Error("late");',
    );
    expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
    const state =
      'return [dispatch("ls", { type: "transform" }), dispatch("getAttr", ["pCube1.translate"])];';
    expect((await execute(client, state)).output).toEqual([["pCube1"], [[0, 0, 0]]]);

    const kept = await execute(client, 'dispatch("polySphere"); throw new Error("late");', {
      keep_partial: true,
    });
    expect(kept).toMatchObject({
      success: false,
      rollback: {
        rolledBack: false,
        reason: "kept",
        undoStep: 'dcc_execute: dispatch("polySphere"); throw new Error("late");',
      },
    });
    const made = await execute(client, 'dispatch("polyTorus");\ndispatch("polyCone");\nreturn 1;');
    expect(made).toMatchObject({
      success: true,
      transaction: { rolledBack: false, undoStep: 'dcc_execute: dispatch("polyTorus");' },
    });
    const undone = await execute(client, 'return dispatch("undo");');
    expect(undone.output).toBe('dcc_execute: dispatch("polyTorus");');
    expect((await execute(client, 'return dispatch("ls", { type: "transform" });')).output).toEqual(
      ["pCube1", "pSphere1"],
    );
  });

  it("rolls back a failed async job as it does a call", async () => {
    await freshScene();
    const started = await execute(client, 'dispatch("polyPlane"); throw new Error("late");', {
      async: true,
    });
    const jobId = started["job_id"] as string;
    let result: ExecuteOutcome | undefined;
    await until(async () => {
      result = await execute(client, "", { code: undefined, job_id: jobId, job_action: "result" });
      const job = result["job"] as { status?: string } | undefined;
      return job?.status === "failed" || job?.status === "completed";
    });
    expect(result).toMatchObject({ success: false, rollback: { rolledBack: true } });
    expect((await execute(client, 'return dispatch("ls", { type: "transform" });')).output).toEqual(
      [],
    );
  });

  it("ends a script that outlives timeout_secs", async () => {
    // Paced: unpaced, a fast machine makes maxDispatchCalls (10 000) calls before the timeout.
    const result = await execute(
      client,
      'for (;;) { dispatch("ls", {}); const until = Date.now() + 2; while (Date.now() < until) {} }',
      { timeout_secs: 1 },
    );
    expect(result).toMatchObject({
      success: false,
      errorCode: "TIMEOUT",
      message: "Script timed out on maya.",
    });
  });
});

describe.each(revisions)("reference server with a token (%s)", (revision) => {
  it("rejects clients without the bearer token", async () => {
    const token = "reference-test-token-123456";
    const guarded = await createReferenceServer({ port: 0, token });
    try {
      await expect(connectHttp(guarded.url as string, undefined, revision)).rejects.toThrow();
      const authorised = await connectHttp(
        guarded.url as string,
        { Authorization: `Bearer ${token}` },
        revision,
      );
      expect((await authorised.listTools()).tools).toHaveLength(2);
      await authorised.close();
    } finally {
      await guarded.close();
    }
  });

  it("refuses a short token", async () => {
    await expect(createReferenceServer({ port: 0, token: "short" })).rejects.toThrow(
      /at least 16 characters/,
    );
  });
});
