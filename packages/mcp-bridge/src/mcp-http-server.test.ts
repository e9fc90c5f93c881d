import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { type Revision, revisions } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "./__fixtures__/http-harness.ts";
import {
  initializeBody,
  jsonRpcHeaders,
  modernBody,
  modernHeaders,
  rawRequest,
} from "./__fixtures__/raw-http.ts";
import { createTestExecutor } from "./__fixtures__/test-executor.ts";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";
import { createMcpHttpServer, type McpHttpServerOptions } from "./mcp-http-server.ts";

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

/** The first request a client of `revision` sends: initialize, or a 2026-07-28 tools/list. */
function opening(revision: Revision): { headers: Record<string, string>; body: string } {
  return revision === "2025-11-25"
    ? { headers: jsonRpcHeaders, body: initializeBody }
    : { headers: modernHeaders("tools/list"), body: modernBody(1, "tools/list") };
}

describe("McpHttpServer", () => {
  it("binds loopback on the default path", async () => {
    harness = await startHttpHarness();
    expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });
});

describe.each(revisions)("McpHttpServer security (%s)", (revision) => {
  const first = opening(revision);

  it("rejects requests without the right bearer token, in every shape", async () => {
    harness = await startHttpHarness({ auth: { token } }, { revision });
    const bad = [
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Basic ${token}` },
      { authorization: `Bearer ${token}x` },
    ];
    for (const headers of bad) {
      const response = await rawRequest(harness.url, {
        headers: { ...first.headers, ...headers },
        body: first.body,
      });
      expect(response.status).toBe(401);
      expect(response.headers["www-authenticate"]).toContain("Bearer");
    }
    const client = await harness.connect({ authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it("accepts labelled tokens beside the plain one and tells each call which label it used", async () => {
    const events: DccToolCallEvent[] = [];
    const tokens = [
      { label: "alice", token: "alice-token-0123456789" },
      { label: "ci.render", token: "ci-render-token-012345" },
    ];
    harness = await startHttpHarness(
      { auth: { token, tokens }, onToolCall: (event) => events.push(event) },
      { revision },
    );
    const refused = await rawRequest(harness.url, {
      headers: { ...first.headers, authorization: "Bearer bob-token-0123456789" },
      body: first.body,
    });
    expect(refused.status).toBe(401);
    for (const [headers, label] of [
      [{ authorization: "Bearer ci-render-token-012345" }, "ci.render"],
      [{ authorization: "Bearer alice-token-0123456789" }, "alice"],
      [{ authorization: `Bearer ${token}` }, undefined],
    ] as const) {
      const client = await harness.connect(headers);
      await client.callTool({ name: "dcc_search", arguments: { query: "sphere" } });
      expect(events.at(-1)).toMatchObject({ tool: "dcc_search", clientName: "test-client" });
      expect(events.at(-1)?.tokenLabel).toBe(label);
    }
    for (const path of ["/healthz", "/metrics"]) {
      const url = new URL(path, harness.url).href;
      expect((await rawRequest(url, { method: "GET" })).status).toBe(401);
      const ok = await rawRequest(url, {
        method: "GET",
        headers: { authorization: "Bearer alice-token-0123456789" },
      });
      expect(ok.status).toBe(200);
    }
    // The handlers see the label, never the secret.
    expect(JSON.stringify(events)).not.toContain("alice-token-0123456789");

    // Revoking alice and adding bob takes effect on the next request; the plain token stays.
    const status = async (bearer: string) =>
      (
        await rawRequest(harness?.url as string, {
          headers: { ...first.headers, authorization: `Bearer ${bearer}` },
          body: first.body,
        })
      ).status;
    expect(() => harness?.server.updateTokens([{ label: "bob", token: "too-short" }])).toThrow(
      /at least 16/,
    );
    expect(await status("alice-token-0123456789")).toBe(200);
    harness.server.updateTokens([{ label: "bob", token: "bob-token-0123456789ab" }]);
    expect(await status("alice-token-0123456789")).toBe(401);
    expect(await status("ci-render-token-012345")).toBe(401);
    expect(await status("bob-token-0123456789ab")).toBe(200);
    expect(await status(token)).toBe(200);
  });

  it("refuses tokens for a server started without auth", async () => {
    harness = await startHttpHarness({}, { revision });
    expect(() =>
      harness?.server.updateTokens([{ label: "bob", token: "bob-token-0123456789ab" }]),
    ).toThrow(/started without auth/);
  });

  it("rejects foreign Host and Origin headers (DNS rebinding)", async () => {
    harness = await startHttpHarness({}, { revision });
    const port = new URL(harness.url).port;
    const foreignHost = await rawRequest(harness.url, {
      headers: { ...first.headers, host: `evil.example:${port}` },
      body: first.body,
    });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.body).toContain("Invalid Host header");
    const foreignOrigin = await rawRequest(harness.url, {
      headers: { ...first.headers, origin: "https://evil.example" },
      body: first.body,
    });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).toContain("Invalid Origin header");
    const nullOrigin = await rawRequest(harness.url, {
      headers: { ...first.headers, origin: "null" },
      body: first.body,
    });
    expect(nullOrigin.status).toBe(403);
    const localOrigin = await rawRequest(harness.url, {
      headers: {
        ...first.headers,
        origin: `http://localhost:${port}`,
        host: `localhost:${port}`,
      },
      body: first.body,
    });
    expect(localOrigin.status).toBe(200);
  });

  it("accepts listed origins", async () => {
    harness = await startHttpHarness({ allowedOrigins: ["https://studio.example"] }, { revision });
    const response = await rawRequest(harness.url, {
      headers: { ...first.headers, origin: "https://studio.example" },
      body: first.body,
    });
    expect(response.status).toBe(200);
  });

  it("answers an oversized body with 413", async () => {
    harness = await startHttpHarness({ maxBodyBytes: 1024 }, { revision });
    const big = first.body.replace('"params":{', `"params":{"pad":"${"x".repeat(5000)}",`);
    const response = await rawRequest(harness.url, { headers: first.headers, body: big });
    expect(response.status).toBe(413);
    const chunked = await rawRequest(harness.url, {
      headers: { ...first.headers, "transfer-encoding": "chunked" },
      body: big,
    });
    expect(chunked.status).toBe(413);
  });
});

describe.each(revisions)("McpHttpServer oversized body (%s)", (revision) => {
  const message = "Payload Too Large: request body must not exceed 4194304 bytes";
  const entry = fileURLToPath(new URL("./__fixtures__/oversized-call.ts", import.meta.url));

  /** Runs the oversized-call client in a process of its own and returns what it saw. */
  async function oversizedCalls(mode: "fetch" | "sdk", attempts: number): Promise<unknown[]> {
    const child = spawn(
      process.execPath,
      [
        "--conditions=@dcc/source",
        "--import",
        "tsx",
        entry,
        harness?.url ?? "",
        revision,
        mode,
        String(attempts),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A hang guard only: the client ends on its own once answered.
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    const [exitCode] = (await once(child, "exit")) as [number | null];
    clearTimeout(timer);
    expect(exitCode, stderr).toBe(0);
    return JSON.parse(stdout) as unknown[];
  }

  // Found by a red team: the server closed the connection with the body unread, and the reset
  // reached the client before the answer (most attempts saw "fetch failed").
  it("answers a 10 MB script sent with fetch with a readable 413 and Connection: close", async () => {
    harness = await startHttpHarness({}, { revision });
    const seen = await oversizedCalls("fetch", 5);
    const expected = {
      status: 413,
      connection: "close",
      body: { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
    };
    expect(seen).toEqual([expected, expected, expected, expected, expected]);
  });

  it("gives the SDK client the 413 and its message, and the client goes on working", async () => {
    harness = await startHttpHarness({}, { revision });
    const seen = (await oversizedCalls("sdk", 3)) as Array<{ refused?: string; after?: unknown }>;
    expect(seen).toHaveLength(3);
    for (const { refused, after } of seen) {
      // The SDKs put the answer's body in the message (v1 keeps the status in `code`).
      expect(refused).toContain(message);
      expect(after).toBe(2);
    }
  });
});

describe("McpHttpServer body limit", () => {
  it("answers a stalled oversized body at once and closes its connection once it stops sending", async () => {
    harness = await startHttpHarness({ maxBodyBytes: 1024 });
    const { port } = new URL(harness.url);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await once(socket, "connect");
    // A body declared far over the limit, of which only a little is sent before the client stalls.
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 10000000\r\n\r\n${"x".repeat(4096)}`,
    );
    // The whole answer arrives while the body is still owed.
    expect(await waitUntil(() => received.includes('"id":null}'))).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain("connection: close");
    // Then the server stops waiting for the rest (2 s without data) and closes; the guard is generous.
    const guard = new Promise<"open">((resolve) =>
      setTimeout(() => resolve("open"), 60_000).unref(),
    );
    const ending = await Promise.race([closed.then(() => "closed" as const), guard]);
    socket.destroy();
    expect(ending).toBe("closed");
  });

  it("closes the connection of an endless chunked body instead of reading it on", async () => {
    const maxBodyBytes = 64 * 1024;
    harness = await startHttpHarness({ maxBodyBytes });
    const { port } = new URL(harness.url);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {}); // a reset once the server closes is expected
    // Plain listeners: events.once would reject on the reset's "error".
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    let open = true;
    void closed.then(() => {
      open = false;
    });
    await once(socket, "connect");
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    // Far more than the limit plus every socket buffer between the two ends; a server that reads
    // on (as it did) takes it all, one that stops closes the connection long before.
    const chunkBytes = 64 * 1024;
    const chunk = `${chunkBytes.toString(16)}\r\n${"x".repeat(chunkBytes)}\r\n`;
    const attemptBytes = 96 * 1024 * 1024;
    let sent = 0;
    while (open && sent < attemptBytes) {
      sent += chunkBytes;
      if (!socket.write(chunk)) {
        await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
      }
    }
    await closed;
    expect(open).toBe(false);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });
});

describe("McpHttpServer requests", () => {
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
    expect(notRpc.body).toContain("valid JSON-RPC message");
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
    const secret = "same-secret-0123456789";
    const refusals: Array<[McpHttpServerOptions["auth"], RegExp]> = [
      [{ tokens: [{ label: "a", token: "short" }] }, /auth\.tokens\[0\] \(label a\).*at least 16/],
      [{ tokens: [{ label: "has space", token: secret }] }, /auth\.tokens\[0\]: the label/],
      [
        {
          tokens: [
            { label: "a", token: secret },
            { label: "a", token: `${secret}x` },
          ],
        },
        /label a is already used by auth\.tokens\[0\]/,
      ],
      [
        {
          tokens: [
            { label: "a", token: secret },
            { label: "b", token: secret },
          ],
        },
        /auth\.tokens\[1\] \(label b\): the same token as label a/,
      ],
      [{ token: secret, tokens: [{ label: "a", token: secret }] }, /the unlabelled token/],
      [{ tokens: [] }, /needs a token/],
    ];
    for (const [auth, message] of refusals) {
      const attempt = () =>
        createMcpHttpServer({ executors: [executor], ...(auth ? { auth } : {}) });
      expect(attempt).toThrow(message);
      // A configuration error never repeats a secret.
      expect(attempt).not.toThrow(secret);
    }
    const sessionRefusals: Array<[Partial<McpHttpServerOptions>, string]> = [
      [{ sessionEvictIdleMs: -1 }, "sessionEvictIdleMs must be a whole number, at least 0: -1"],
      [{ sessionIdleMs: 1.5 }, "sessionIdleMs must be a whole number, at least 0: 1.5"],
      [{ maxSessions: 0 }, "maxSessions must be a whole number, at least 1: 0"],
      [{ maxSessionsPerClient: Number.NaN }, "maxSessionsPerClient must be a whole number"],
    ];
    for (const [settings, message] of sessionRefusals) {
      expect(() => createMcpHttpServer({ executors: [executor], ...settings })).toThrow(message);
    }
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

  it("refuses a new session with 503 while every session made calls within sessionEvictIdleMs", async () => {
    harness = await startHttpHarness({ maxSessions: 2, sessionEvictIdleMs: 10 * 60_000 });
    const clients = [await harness.connect(), await harness.connect()];
    for (const client of clients) expect((await client.listTools()).tools).toHaveLength(2);
    const response = await rawRequest(harness.url, {
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body).error.message).toBe(
      "Too many sessions for this server (2), none idle for 600 s; close one or try again later",
    );
    for (const client of clients) expect((await client.listTools()).tools).toHaveLength(2);
  });

  it("lets a new client in when 70 sessions that each made one call have filled the table", async () => {
    // The default table (64 sessions); any session not answering a request may give way.
    harness = await startHttpHarness({ sessionEvictIdleMs: 0 });
    for (let i = 0; i < 70; i++) {
      const client = await harness.connect();
      const found = (await client.callTool({
        name: "dcc_search",
        arguments: { query: "tick" },
      })) as ToolResult;
      expect(found.structuredContent?.["success"]).toBe(true);
    }
    expect(harness.server.sessionCount).toBe(64);
    const newcomer = await harness.connect();
    const ran = (await newcomer.callTool({
      name: "dcc_execute",
      arguments: { code: "return 1 + 1" },
    })) as ToolResult;
    expect(ran.structuredContent?.["output"]).toBe(2);
    expect(harness.server.sessionCount).toBe(64);
  });

  it("never makes a session answering a call give way", async () => {
    harness = await startHttpHarness({ maxSessions: 1, sessionEvictIdleMs: 0 });
    const busy = await harness.connect();
    const call = busy.callTool({
      name: "dcc_execute",
      arguments: { code: "await dispatch('block', {});" },
    });
    call.catch(() => {});
    expect(await waitUntil(() => harness?.test.journal.calls.includes("block") ?? false)).toBe(
      true,
    );
    const refused = await rawRequest(harness.url, {
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(refused.status).toBe(503);
    // The client leaves (its call is cancelled): its session no longer answers a call and gives way.
    await busy.close();
    expect(await waitUntil(() => harness?.test.journal.blockSawCancel === true)).toBe(true);
    const newcomer = await harness.connect();
    expect((await newcomer.listTools()).tools).toHaveLength(2);
  });

  it("closes the longest-idle unused session for a new client, so unused sessions lock nobody out", async () => {
    harness = await startHttpHarness({ maxSessions: 4 });
    const inUse = await harness.connect();
    expect((await inUse.listTools()).tools).toHaveLength(2);
    // Four sessions opened and never used: with the one in use they overfill the table, so the
    // fourth already makes the first make way.
    const unused: string[] = [];
    for (let i = 0; i < 4; i++) unused.push(await openSession(harness.url));
    expect(harness.server.sessionCount).toBe(4);
    const newcomer = await harness.connect();
    const ran = (await newcomer.callTool({
      name: "dcc_execute",
      arguments: { code: "return 1 + 1" },
    })) as ToolResult;
    expect(ran.structuredContent?.["output"]).toBe(2);
    expect(harness.server.sessionCount).toBe(4);
    // The session in use was kept; the newcomer made the next oldest unused one make way.
    expect((await inUse.listTools()).tools).toHaveLength(2);
    const ping = (id: string) =>
      rawRequest(harness?.url as string, {
        headers: { ...jsonRpcHeaders, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
      });
    expect((await ping(unused[0] as string)).status).toBe(404);
    expect((await ping(unused[1] as string)).status).toBe(404);
    expect((await ping(unused[3] as string)).status).toBe(200);
  });

  it("limits the sessions of each labelled token, not of the loopback address all share", async () => {
    const alice = "alice-token-0123456789";
    const bob = "bob-token-01234567890";
    const plain = "plain-token-0123456789";
    harness = await startHttpHarness({
      auth: {
        token: plain,
        tokens: [
          { label: "alice", token: alice },
          { label: "bob", token: bob },
        ],
      },
      maxSessions: 16,
      maxSessionsPerClient: 2,
      sessionEvictIdleMs: 10 * 60_000,
    });
    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
    for (let i = 0; i < 2; i++) {
      expect((await (await harness.connect(bearer(alice))).listTools()).tools).toHaveLength(2);
    }
    const third = await rawRequest(harness.url, {
      headers: { ...jsonRpcHeaders, ...bearer(alice) },
      body: initializeBody,
    });
    expect(third.status).toBe(503);
    expect(third.body).toContain("Too many sessions for the token alice (2)");
    // Bob, on the same loopback address, has a share of his own.
    expect((await (await harness.connect(bearer(bob))).listTools()).tools).toHaveLength(2);
    // Clients without a labelled token on loopback share one address: no share is kept for it.
    for (let i = 0; i < 3; i++) {
      expect((await (await harness.connect(bearer(plain))).listTools()).tools).toHaveLength(2);
    }
    expect(harness.server.sessionCount).toBe(6);
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
    // The script stops at once; the host command notices the cancel at its next check.
    expect(await waitUntil(() => harness?.test.journal.blockSawCancel === true)).toBe(true);
    expect(await harness.test.idle()).toBe(true);
    await expect(
      rawRequest(harness.url, { headers: jsonRpcHeaders, body: initializeBody }),
    ).rejects.toThrow();
  });
});

describe("McpHttpServer on 2026-07-28", () => {
  const post = (url: string, id: number, method: string, params: Record<string, unknown> = {}) =>
    rawRequest(url, { headers: modernHeaders(method), body: modernBody(id, method, params) });

  it("answers tools/list with cache fields and the same order every time, holding no session", async () => {
    harness = await startHttpHarness();
    const first = await post(harness.url, 1, "tools/list");
    const second = await post(harness.url, 2, "tools/list");
    expect(first.status).toBe(200);
    expect(first.headers["mcp-session-id"]).toBeUndefined();
    const listed = JSON.parse(first.body).result;
    expect(listed).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "dcc_search",
      "dcc_execute",
    ]);
    expect(JSON.parse(second.body).result.tools).toEqual(listed.tools);
    expect(harness.server.sessionCount).toBe(0);
  });

  it("answers a call that notifies nothing as plain JSON", async () => {
    harness = await startHttpHarness();
    const response = await rawRequest(harness.url, {
      headers: modernHeaders("tools/call", "dcc_search"),
      body: modernBody(1, "tools/call", { name: "dcc_search", arguments: { query: "sphere" } }),
    });
    expect(response.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(response.body).result.structuredContent).toMatchObject({ success: true });
  });

  it("answers with the revision's error codes", async () => {
    harness = await startHttpHarness();
    const unknown = await post(harness.url, 1, "no/such/method");
    expect(JSON.parse(unknown.body).error.code).toBe(-32601);
    const badMeta = await rawRequest(harness.url, {
      headers: modernHeaders("tools/list"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      }),
    });
    expect(JSON.parse(badMeta.body).error.code).toBe(-32602);
    const mismatch = await rawRequest(harness.url, {
      headers: modernHeaders("tools/call", "dcc_execute"),
      body: modernBody(3, "tools/call", { name: "dcc_search", arguments: { query: "x" } }),
    });
    expect(JSON.parse(mismatch.body).error.code).toBe(-32020);
  });
});
