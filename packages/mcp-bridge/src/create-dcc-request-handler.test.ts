import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Revision, revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { initializeBody, jsonRpcHeaders, rawRequest } from "./__fixtures__/raw-http.ts";
import { call, connectClient, createTestAdapter } from "./__fixtures__/test-adapters.ts";
import { createTestExecutor } from "./__fixtures__/test-executor.ts";
import { createDccRequestHandler } from "./create-dcc-request-handler.ts";
import { createMcpHttpHandler } from "./mcp-http-handler.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Listens on a free loopback port with `handler`; closed after the test. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const http: Server = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

async function client(url: string, revision: Revision): Promise<TestClient> {
  const connected = await connectClient(url, revision);
  cleanups.push(() => connected.close().catch(() => {}));
  return connected;
}

describe.each(revisions)("createDccRequestHandler (%s)", { timeout: 60_000 }, (revision) => {
  it("serves adapters from a node:http server the caller owns and routes", async () => {
    const alpha = createTestAdapter("alpha");
    const handler = await createDccRequestHandler({ adapters: [alpha], path: "/mcp" });
    cleanups.push(() => handler.close());
    const base = await listen((request, response) => {
      if (request.url === "/health") response.end("ok");
      else void handler(request, response);
    });
    const connected = await client(`${base}/mcp`, revision);
    expect((await connected.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "dcc_execute",
      "dcc_search",
    ]);
    expect(
      await call(connected, "dcc_execute", { code: 'return dispatch("hello");' }),
    ).toMatchObject({ success: true, output: "hello from alpha" });
    expect((await rawRequest(`${base}/health`, { method: "GET" })).body).toBe("ok");
    expect(
      (await rawRequest(`${base}/other`, { headers: jsonRpcHeaders, body: initializeBody })).status,
    ).toBe(404);
    expect(handler.adapters[0]?.status.state).toBe("ready");

    await handler.close();
    const late = await rawRequest(`${base}/mcp`, { headers: jsonRpcHeaders, body: initializeBody });
    expect(late.status).toBe(503);
    expect(alpha.events.at(-1)).toBe("close");
    expect(handler.adapters[0]?.status).toEqual({ state: "closed" });
  });

  it("refuses a short token before starting the adapters", async () => {
    const alpha = createTestAdapter("alpha");
    await expect(
      createDccRequestHandler({ adapters: [alpha], token: "short" }),
    ).rejects.toMatchObject({ code: "INVALID_CONFIG" });
    expect(alpha.events).toEqual([]);
  });
});

describe("readiness of a mounted handler", { timeout: 60_000 }, () => {
  it("answers /readyz 503 from the moment close() starts, while the listener still serves", async () => {
    const alpha = createTestAdapter("alpha");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Its close waits for the test: shutdown is then under way for as long as the test needs.
    const handler = await createDccRequestHandler({
      adapters: [{ ...alpha, close: () => held }],
      path: "/mcp",
    });
    cleanups.push(async () => {
      release();
      await handler.close();
    });
    const base = await listen((request, response) => void handler(request, response));
    expect((await rawRequest(`${base}/readyz`, { method: "GET" })).status).toBe(200);

    const closing = handler.close();
    const during = await rawRequest(`${base}/readyz`, { method: "GET" });
    expect(during.status).toBe(503);
    expect(JSON.parse(during.body)).toMatchObject({
      status: "not ready",
      reasons: expect.arrayContaining(["The server is shutting down"]),
    });
    // Liveness is about the process, which still serves.
    expect((await rawRequest(`${base}/healthz`, { method: "GET" })).status).toBe(200);
    release();
    await closing;
    expect((await rawRequest(`${base}/readyz`, { method: "GET" })).status).toBe(503);
  });
});

describe("createMcpHttpHandler", { timeout: 60_000 }, () => {
  it("answers every path without a path setting, and checks the bearer token", async () => {
    const test = createTestExecutor("maya");
    cleanups.push(() => test.close());
    const token = "s3cret-token-0123456789";
    const handler = createMcpHttpHandler({ executors: [test.executor], auth: { token } });
    cleanups.push(() => handler.close());
    const base = await listen(handler);
    const refused = await rawRequest(`${base}/anything`, {
      headers: jsonRpcHeaders,
      body: initializeBody,
    });
    expect(refused.status).toBe(401);
    const accepted = await rawRequest(`${base}/anything`, {
      headers: { ...jsonRpcHeaders, authorization: `Bearer ${token}` },
      body: initializeBody,
    });
    expect(accepted.status).toBe(200);
    expect(handler.sessionCount).toBe(1);
    await handler.close();
    expect(handler.sessionCount).toBe(0);
  });
});
