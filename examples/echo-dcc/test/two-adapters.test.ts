// Two adapters on one server: the simulated Maya and the echo DCC, each with its own pair of
// tools. A spinning script on one is cancelled while the other keeps answering. Once per protocol
// revision, each with the official client that speaks it.

import { createMayaAdapter } from "@dcc/maya";
import { createDccServer, type DccServer } from "@dcc/mcp-bridge";
import { connectClient, revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEchoAdapter } from "../src/echo-adapter.ts";

const names = (found: Record<string, unknown>): string[] =>
  (found["results"] as Array<{ name: string }>).map((record) => record.name);

describe.each(revisions)(
  "maya and the echo DCC on one server (%s)",
  { timeout: 120_000 },
  (revision) => {
    let server: DccServer;
    let client: TestClient;

    beforeAll(async () => {
      server = await createDccServer({
        adapters: [createMayaAdapter(), createEchoAdapter()],
        port: 0,
      });
      ({ client } = await connectClient(revision, { kind: "http", url: server.url as string }));
    }, 120_000);

    afterAll(async () => {
      await client?.close();
      await server?.close();
    });

    async function call(
      name: string,
      args: Record<string, unknown>,
    ): Promise<Record<string, unknown>> {
      const result = await client.callTool({ name, arguments: args }, { timeout: 60_000 });
      return result.structuredContent as Record<string, unknown>;
    }

    it("lists four prefixed tools and answers both pairs from their own catalogs and commands", async () => {
      expect(client.protocolVersion()).toBe(revision);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "echo_execute",
        "echo_search",
        "maya_execute",
        "maya_search",
      ]);
      expect(tools.find((tool) => tool.name === "maya_execute")?.description).toContain(
        "found with maya_search",
      );
      expect(client.getInstructions()).toContain("Use maya_search to find maya.cmds commands");

      expect(
        names(await call("maya_search", { query: "create polygon sphere", limit: 5 })),
      ).toContain("polySphere");
      expect(names(await call("echo_search", { query: "add a line of text", limit: 1 }))).toEqual([
        "say",
      ]);
      expect(
        await call("maya_execute", { code: 'return dispatch("polySphere", { name: "ball" });' }),
      ).toMatchObject({ success: true, output: ["ball", "polySphere1"] });
      expect(
        await call("echo_execute", {
          code: 'dispatch("say", { text: "hi" }); return dispatch("history");',
        }),
      ).toMatchObject({
        success: true,
        output: ["hi"],
        message: "Script executed successfully on echo.",
      });
      const crossed = await call("echo_execute", {
        code: 'try { dispatch("polySphere", {}); } catch (error) { return error.code; }',
      });
      expect(crossed["output"]).toBe("UNKNOWN_COMMAND");
    });

    it("cancels a spinning script on maya while echo keeps answering", async () => {
      const started = await call("maya_execute", { code: "while (true) {}", async: true });
      const jobId = started["job_id"] as string;
      expect(started).toMatchObject({ success: true, status: "running" });

      for (let i = 0; i < 3; i++) {
        expect(
          await call("echo_execute", { code: `return dispatch("echo", ${i});` }),
        ).toMatchObject({
          success: true,
          output: i,
        });
        expect((await call("echo_search", { query: "history" }))["success"]).toBe(true);
      }
      expect(await call("echo_execute", { job_id: jobId, job_action: "status" })).toMatchObject({
        success: false,
        errorCode: "JOB_NOT_FOUND",
      });
      expect(await call("maya_execute", { job_id: jobId, job_action: "status" })).toMatchObject({
        job: { status: "running" },
      });

      await call("maya_execute", { job_id: jobId, job_action: "cancel" });
      // Cancel waits for the script to stop; on a loaded machine it may need another look.
      let status = "";
      const deadline = Date.now() + 60_000;
      while (status !== "cancelled" && Date.now() < deadline) {
        const polled = await call("maya_execute", { job_id: jobId, job_action: "status" });
        status = (polled["job"] as { status: string }).status;
      }
      expect(status).toBe("cancelled");
      expect(await call("maya_execute", { job_id: jobId, job_action: "result" })).toMatchObject({
        success: false,
        errorCode: "CANCELLED",
      });

      expect((await call("maya_execute", { code: "return 1 + 1;" }))["output"]).toBe(2);
      expect(
        (await call("echo_execute", { code: 'return dispatch("echo", "still here");' }))["output"],
      ).toBe("still here");
    });
  },
);
