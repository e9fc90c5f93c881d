import { PassThrough } from "node:stream";
import { searchLimits } from "@dcc/catalog";
import { type Revision, revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { initializeBody } from "./__fixtures__/raw-http.ts";
import {
  call,
  connectClient,
  createTestAdapter,
  eventually,
} from "./__fixtures__/test-adapters.ts";
import {
  type CreateDccServerOptions,
  createDccServer,
  type DccServer,
} from "./create-dcc-server.ts";

let server: DccServer | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await server?.close();
  server = undefined;
});

async function serve(
  options: CreateDccServerOptions,
  revision: Revision = "2025-11-25",
): Promise<TestClient> {
  server = await createDccServer({ port: 0, ...options });
  const client = await connectClient(server.url as string, revision);
  clients.push(client);
  return client;
}

describe.each(revisions)(
  "createDccServer with one adapter (%s)",
  { timeout: 60_000 },
  (revision) => {
    it("states in dcc_search's schema the limit cap the search applies", async () => {
      const client = await serve({ adapters: [createTestAdapter("alpha")] }, revision);
      const { tools } = await client.listTools();
      const schema = tools.find((tool) => tool.name === "dcc_search")?.inputSchema as {
        properties: Record<string, unknown>;
      };
      expect(schema.properties["limit"]).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum: searchLimits.maxLimit,
        default: searchLimits.defaultLimit,
      });
      const over = await client.callTool({
        name: "dcc_search",
        arguments: { query: "alpha", limit: searchLimits.maxLimit + 1 },
      });
      expect(over.isError).toBe(true);
      expect(JSON.stringify(over.content)).toContain(`limit must be`);
    });

    it("serves it as dcc_search and dcc_execute, with its texts, after starting it", async () => {
      const alpha = createTestAdapter("alpha");
      const client = await serve({ adapters: [alpha], name: "composed" }, revision);
      expect(alpha.events).toEqual(["start", "commands", "catalog"]);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
      expect(tools.find((tool) => tool.name === "dcc_execute")?.description).toBe(
        "Run a alpha script. Find commands with dcc_search.",
      );
      // An adapter without undo says so once, in the instructions.
      expect(client.getInstructions()).toBe(
        "Use dcc_search, then dcc_execute, to drive alpha.\nalpha has no undo: a failed script's changes stay (not rolled back).",
      );
      expect(client.getServerVersion()?.name).toBe("composed");

      const found = await call(client, "dcc_search", { query: "only alpha has" });
      expect((found["results"] as Array<{ name: string }>)[0]?.name).toBe("alphaOnly");
      const ran = await call(client, "dcc_execute", {
        code: 'let code; try { dispatch("boom"); } catch (error) { code = error.code; } return [dispatch("hello"), code];',
      });
      expect(ran).toMatchObject({
        success: true,
        output: ["hello from alpha", "BOOM"],
        message: "Script executed successfully on alpha.",
      });
      const failed = await call(client, "dcc_execute", {
        code: 'dispatch("hello"); throw new Error("late");',
      });
      expect(failed).toMatchObject({
        success: false,
        rollback: { rolledBack: false, reason: "no_undo" },
      });
      expect(server?.adapters.map((entry) => [entry.name, entry.status.state])).toEqual([
        ["alpha", "ready"],
      ]);
      expect(server?.adapters[0]?.tools).toEqual({ search: "dcc_search", execute: "dcc_execute" });
    });

    it("shuts down in order: the running call is stopped, then the adapter closes", async () => {
      const alpha = createTestAdapter("alpha");
      const client = await serve({ adapters: [alpha] }, revision);
      // The client may never hear back: shutdown closes its connection. afterEach closes it.
      void call(client, "dcc_execute", { code: 'dispatch("wait"); return 1;' }).catch(() => {});
      expect(await eventually(() => alpha.events.includes("wait"))).toBe(true);
      await server?.close();
      await server?.closed;
      expect(alpha.events.slice(3)).toEqual(["wait", "aborted", "close"]);
      expect(server?.adapters[0]?.status).toEqual({ state: "closed" });
    });

    it("rejects with START_FAILED when its start fails, and still closes it", async () => {
      const alpha = createTestAdapter("alpha", {
        start: async () => {
          throw new Error("no licence");
        },
      });
      await expect(createDccServer({ adapters: [alpha], port: 0 })).rejects.toMatchObject({
        code: "START_FAILED",
        message: "alpha did not start: no licence",
      });
      expect(alpha.events).toEqual(["start", "close"]);
    });
  },
);

describe.each(revisions)(
  "createDccServer with several adapters (%s)",
  { timeout: 60_000 },
  (revision) => {
    it("gives each its own prefixed pair, catalog, commands, limits and jobs", async () => {
      const alpha = createTestAdapter("alpha");
      const beta = createTestAdapter("beta");
      const client = await serve({
        adapters: [alpha, { adapter: beta, limits: { maxDispatchCalls: 3 } }],
      });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "alpha_execute",
        "alpha_search",
        "beta_execute",
        "beta_search",
      ]);
      expect(tools.find((tool) => tool.name === "beta_execute")?.description).toBe(
        "Run a beta script. Find commands with beta_search.",
      );
      expect(client.getInstructions()).toContain("- alpha: alpha_search, alpha_execute");
      expect(client.getInstructions()).toContain(
        "Use beta_search, then beta_execute, to drive beta.",
      );

      const found = await call(client, "beta_search", { query: "only has" });
      expect((found["results"] as Array<{ name: string }>).map((record) => record.name)).toEqual([
        "betaOnly",
      ]);
      expect(
        await call(client, "alpha_execute", { code: 'return dispatch("alphaOnly");' }),
      ).toMatchObject({ success: true, output: "alpha" });
      const crossed = await call(client, "beta_execute", {
        code: 'try { dispatch("alphaOnly"); } catch (error) { return error.code; }',
      });
      expect(crossed["output"]).toBe("UNKNOWN_COMMAND");

      const loop = 'for (let i = 0; i < 5; i++) dispatch("hello"); return "done";';
      expect((await call(client, "alpha_execute", { code: loop }))["output"]).toBe("done");
      expect(await call(client, "beta_execute", { code: loop })).toMatchObject({
        success: false,
        errorCode: "LIMIT_EXCEEDED",
        limit: "dispatchCalls",
      });

      const job = await call(client, "alpha_execute", { code: "return 7;", async: true });
      const jobId = job["job_id"] as string;
      expect(
        await call(client, "beta_execute", { job_id: jobId, job_action: "status" }),
      ).toMatchObject({ success: false, errorCode: "JOB_NOT_FOUND" });
      expect(
        await call(client, "alpha_execute", { job_id: jobId, job_action: "status" }),
      ).toMatchObject({ success: true });
    });

    it("keeps the others serving when one fails to start", async () => {
      const alpha = createTestAdapter("alpha", {
        start: async () => {
          throw new Error("no licence");
        },
      });
      const beta = createTestAdapter("beta");
      const gamma = createTestAdapter("gamma");
      gamma.catalog = () => {
        throw new Error("catalog file missing");
      };
      const client = await serve({ adapters: [alpha, beta, gamma] }, revision);
      expect((await client.listTools()).tools).toHaveLength(6);
      expect(client.getInstructions()).toContain(
        "- alpha: alpha_search, alpha_execute (unavailable: alpha did not start: no licence)",
      );
      expect(await call(client, "alpha_execute", { code: "return 1;" })).toMatchObject({
        success: false,
        errorCode: "HOST_UNAVAILABLE",
        error: "alpha did not start: no licence",
        completion: "not_started",
      });
      expect(await call(client, "alpha_search", { query: "hello" })).toMatchObject({
        success: false,
        errorCode: "HOST_UNAVAILABLE",
      });
      expect(
        await call(client, "beta_execute", { code: 'return dispatch("hello");' }),
      ).toMatchObject({ success: true, output: "hello from beta" });
      expect(server?.adapters.map((entry) => entry.status.state)).toEqual([
        "failed",
        "ready",
        "failed",
      ]);
      expect(await call(client, "gamma_execute", { code: "return 1;" })).toMatchObject({
        errorCode: "HOST_UNAVAILABLE",
        error: "gamma did not start: catalog file missing",
      });
      expect(server?.adapters[0]?.executor).toBeUndefined();
      await server?.close();
      expect(alpha.events).toEqual(["start", "close"]);
      expect(gamma.events).toEqual(["start", "commands", "close"]);
    });

    it("gives up on a start that hangs, aborting its signal", async () => {
      const alpha = createTestAdapter("alpha", {
        start: (context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () => reject(new Error("gave up")));
          }),
      });
      const client = await serve(
        {
          adapters: [alpha, createTestAdapter("beta")],
          startTimeoutMs: 200,
        },
        revision,
      );
      expect(alpha.context?.signal.aborted).toBe(true);
      expect(server?.adapters[0]?.status).toEqual({
        state: "failed",
        reason: "alpha did not start: did not start within 200 ms",
      });
      expect((await call(client, "beta_execute", { code: "return 2;" }))["output"]).toBe(2);
    });

    it("stops and refuses one adapter's scripts while its host is away, then resumes", async () => {
      const alpha = createTestAdapter("alpha");
      const beta = createTestAdapter("beta");
      const client = await serve({ adapters: [alpha, beta] }, revision);
      const running = call(client, "alpha_execute", { code: 'dispatch("wait"); return 1;' });
      expect(await eventually(() => alpha.events.includes("wait"))).toBe(true);
      alpha.context?.reportHost({ state: "unavailable", reason: "host exited (code 1)" });
      expect(await running).toMatchObject({
        success: false,
        errorCode: "HOST_UNAVAILABLE",
        message: "Script stopped on alpha: its host became unavailable.",
        error: "alpha: host exited (code 1)",
      });
      expect(alpha.events).toContain("aborted");
      expect(await call(client, "alpha_execute", { code: "return 1;" })).toMatchObject({
        success: false,
        errorCode: "HOST_UNAVAILABLE",
        completion: "not_started",
      });
      expect((await call(client, "alpha_search", { query: "hello" }))["success"]).toBe(true);
      expect((await call(client, "beta_execute", { code: "return 2;" }))["output"]).toBe(2);
      expect(server?.adapters[0]?.status).toEqual({
        state: "unavailable",
        reason: "alpha: host exited (code 1)",
      });

      alpha.context?.reportHost({ state: "ready" });
      expect(
        await call(client, "alpha_execute", { code: 'return dispatch("hello");' }),
      ).toMatchObject({ success: true, output: "hello from alpha" });
    });
  },
);

describe("createDccServer configuration", { timeout: 60_000 }, () => {
  it("refuses bad settings before starting any adapter", async () => {
    const alpha = createTestAdapter("alpha");
    const cases: CreateDccServerOptions[] = [
      { adapters: [] },
      { adapters: [alpha, createTestAdapter("alpha")] },
      { adapters: [{ adapter: alpha, searchToolName: "bad name" }] },
      { adapters: [alpha], token: "short" },
      { adapters: [alpha], host: "0.0.0.0" },
    ];
    for (const options of cases) {
      await expect(createDccServer({ port: 0, ...options })).rejects.toMatchObject({
        code: "INVALID_CONFIG",
      });
    }
    await expect(
      createDccServer({ port: 0, adapters: [alpha], limits: { stackBytes: 1e9 } }),
    ).rejects.toMatchObject({ code: "INVALID_LIMITS" });
    expect(alpha.events).toEqual([]);
  });

  it("closes every adapter again when the port is taken", async () => {
    const first = createTestAdapter("alpha");
    server = await createDccServer({ port: 0, adapters: [first] });
    const port = Number(new URL(server.url as string).port);
    const second = createTestAdapter("alpha");
    await expect(createDccServer({ port, adapters: [second] })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    expect(second.events).toEqual(["start", "commands", "catalog", "close"]);
  });
});

describe("createDccServer over stdio", { timeout: 60_000 }, () => {
  it("serves the adapters on the given streams and closes them when stdin ends", async () => {
    const alpha = createTestAdapter("alpha");
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: string[] = [];
    let buffered = "";
    stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      lines.push(...parts.filter(Boolean));
    });
    const stdio = await createDccServer({
      adapters: [alpha, createTestAdapter("beta")],
      transport: "stdio",
      stdin,
      stdout,
    });
    server = stdio;
    expect(stdio.url).toBeUndefined();
    stdin.write(`${initializeBody}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    const deadline = Date.now() + 30_000;
    while (lines.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const listed = JSON.parse(lines[1] as string) as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools.map((tool) => tool.name).sort()).toEqual([
      "alpha_execute",
      "alpha_search",
      "beta_execute",
      "beta_search",
    ]);
    stdin.end();
    await stdio.closed;
    expect(alpha.events.at(-1)).toBe("close");
  });
});
