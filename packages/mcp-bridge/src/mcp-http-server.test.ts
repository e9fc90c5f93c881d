import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "./__fixtures__/http-harness.ts";
import { initializeBody, jsonRpcHeaders, rawRequest } from "./__fixtures__/raw-http.ts";
import { createTestExecutor } from "./__fixtures__/test-executor.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";
import { createMcpHttpServer } from "./mcp-http-server.ts";

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };
const token = "s3cret-token-0123456789";

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await rawRequest(url, {
    headers: { ...jsonRpcHeaders, ...headers },
    body: initializeBody,
  });
  expect(response.status).toBe(200);
  return response.headers["mcp-session-id"] as string;
}

describe("McpHttpServer security", () => {
  it("binds loopback on the default path", async () => {
    harness = await startHttpHarness();
    expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("rejects requests without the right bearer token, in every shape", async () => {
    harness = await startHttpHarness({ auth: { token } });
    const bad = [
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Basic ${token}` },
      { authorization: `Bearer ${token}x` },
    ];
    for (const headers of bad) {
      const response = await rawRequest(harness.url, {
        headers: { ...jsonRpcHeaders, ...headers },
        body: initializeBody,
      });
      expect(response.status).toBe(401);
      expect(response.headers["www-authenticate"]).toContain("Bearer");
    }
    const client = await harness.connect({ authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it("rejects foreign Host and Origin headers (DNS rebinding)", async () => {
    harness = await startHttpHarness();
    const port = new URL(harness.url).port;
    const foreignHost = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, host: `evil.example:${port}` },
      body: initializeBody,
    });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).toContain("Invalid Host header");
    const foreignOrigin = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, origin: "https://evil.example" },
      body: initializeBody,
    });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).toContain("Invalid Origin header");
    const nullOrigin = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, origin: "null" },
      body: initializeBody,
    });
    expect(nullOrigin.status).toBe(403);
    const localOrigin = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, origin: `http://localhost:${port}`, host: `localhost:${port}` },
      body: initializeBody,
    });
    expect(localOrigin.status).toBe(200);
  });

  it("accepts listed origins", async () => {
    harness = await startHttpHarness({ allowedOrigins: ["https://studio.example"] });
    const response = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, origin: "https://studio.example" },
      body: initializeBody,
    });
    expect(response.status).toBe(200);
  });

  it("answers an oversized body with 413", async () => {
    harness = await startHttpHarness({ maxBodyBytes: 1024 });
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { pad: "x".repeat(5000) },
    });
    const response = await rawRequest(harness.url, { headers: jsonRpcHeaders, body: big });
    expect(response.status).toBe(413);
    const chunked = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, "transfer-encoding": "chunked" },
      body: big,
    });
    expect(chunked.status).toBe(413);
  });

  it("answers malformed JSON and malformed JSON-RPC with 400", async () => {
    harness = await startHttpHarness();
    const notJson = await rawRequest(harness.url, { headers: jsonRpcHeaders, body: "{ nope" });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    const session = await openSession(harness.url);
    const notRpc = await rawRequest(harness.url, {
      headers: {
        ...jsonRpcHeaders,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body).toContain("Invalid JSON-RPC message");
    const noSession = await rawRequest(harness.url, {
      headers: jsonRpcHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(noSession.status).toBe(400);
    const unknownSession = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, "mcp-session-id": "not-a-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(unknownSession.status).toBe(404);
  });

  it("answers other paths with 404 and other methods with 405", async () => {
    harness = await startHttpHarness();
    const other = await rawRequest(harness.url.replace("/mcp", "/other"), {
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(other.status).toBe(404);
    const put = await rawRequest(harness.url, {
      method: "PUT",
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(put.status).toBe(405);
  });

  it("refuses a non-loopback bind without auth", async () => {
    const test = createTestExecutor();
    const { executor } = test;
    expect(() => createMcpHttpServer({ host: "0.0.0.0", executors: [executor] })).toThrow(
      McpBridgeError,
    );
    expect(() => createMcpHttpServer({ executors: [executor], auth: { token: "short" } })).toThrow(
      /at least 16/,
    );
    expect(() => createMcpHttpServer({})).toThrow(/executors, setup/);
    await test.close();
  });
});

describe("McpHttpServer setup", () => {
  it("lets setup add tools with the shared job manager, and registrations override descriptions", async () => {
    const test = createTestExecutor();
    const seenJobs: unknown[] = [];
    harness = await startHttpHarness({
      executors: [{ executor: test.executor, executeDescription: "Run a Maya script." }],
      setup: (server, { jobs }) => {
        seenJobs.push(jobs);
        server.registerTool("extra_tool", { description: "Extra" }, async () => ({
          content: [{ type: "text", text: "extra" }],
        }));
      },
    });
    const client = await harness.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "dcc_execute",
      "dcc_search",
      "extra_tool",
    ]);
    expect(tools.find((tool) => tool.name === "dcc_execute")?.description).toBe(
      "Run a Maya script.",
    );
    expect(seenJobs).toEqual([harness.server.jobs]);
    await test.close();
  });
});

describe("McpHttpServer sessions", () => {
  it("serves concurrent sessions independently", async () => {
    harness = await startHttpHarness();
    const clients = await Promise.all(
      Array.from({ length: 8 }, () => harness?.connect() ?? Promise.reject()),
    );
    const results = (await Promise.all(
      clients.map((client, index) =>
        client.callTool({
          name: "dcc_execute",
          arguments: { code: `await dispatch('tick', {}); return ${index};` },
        }),
      ),
    )) as ToolResult[];
    expect(results.map((result) => result.structuredContent?.["output"])).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(harness.server.sessionCount).toBe(8);
    expect(harness.test.journal.ticks).toBe(8);
  });

  it("refuses sessions beyond maxSessions with 503", async () => {
    harness = await startHttpHarness({ maxSessions: 1 });
    await openSession(harness.url);
    const response = await rawRequest(harness.url, {
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(response.status).toBe(503);
  });

  it("closes idle sessions", async () => {
    harness = await startHttpHarness({ sessionIdleMs: 100 });
    await openSession(harness.url);
    expect(harness.server.sessionCount).toBe(1);
    expect(await waitUntil(() => harness?.server.sessionCount === 0, 60_000)).toBe(true);
  });

  it("cancels work in flight on graceful shutdown and stops listening", async () => {
    harness = await startHttpHarness();
    const client = await harness.connect();
    const call = client.callTool({
      name: "dcc_execute",
      arguments: { code: "await dispatch('block', {});" },
    });
    call.catch(() => {});
    expect(await waitUntil(() => harness?.test.journal.calls.includes("block") ?? false)).toBe(
      true,
    );
    await harness.server.close();
    expect(harness.test.journal.blockSawCancel).toBe(true);
    expect(await harness.test.idle()).toBe(true);
    await expect(
      rawRequest(harness.url, { headers: jsonRpcHeaders, body: initializeBody }),
    ).rejects.toThrow();
  });
});
