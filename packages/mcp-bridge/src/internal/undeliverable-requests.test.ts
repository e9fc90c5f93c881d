import { request } from "node:http";
import { revisions, type TestClient, type ToolResult } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "../__fixtures__/http-harness.ts";
import {
  initializeBody,
  jsonRpcHeaders,
  modernBody,
  modernHeaders,
  rawRequest,
} from "../__fixtures__/raw-http.ts";
import { requestIds, withoutRequests } from "./undeliverable-requests.ts";

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// At least 2 ms between dispatch calls, so only a cancellation can stop the script in the bounds
// below; each script counts under its own key.
const spin = (key: string): string =>
  `for (;;) { dispatch('count', { key: '${key}' }); const until = Date.now() + 2; while (Date.now() < until) {} }`;

function counted(key: string): number {
  return harness?.test.journal.counted.get(key) ?? 0;
}

/**
 * Resolves true once a script has ended CANCELLED (the executor's own word, waited for with a
 * generous hang guard rather than guessed from a quiet window) and `key` counts no more after it.
 */
async function stopped(key: string): Promise<boolean> {
  const cancelled = await waitUntil(
    () => harness?.test.results.some((result) => result["errorCode"] === "CANCELLED") ?? false,
  );
  const frozen = counted(key);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return cancelled && counted(key) === frozen;
}

function startCall(client: TestClient, code: string): Promise<ToolResult> {
  const call = client.callTool(
    { name: "dcc_execute", arguments: { code, timeout_secs: 60 } },
    { timeout: 70_000 },
  );
  call.catch(() => {});
  return call;
}

describe.each(revisions)(
  "a request whose response stream closes before its result (%s)",
  (revision) => {
    it("client.close() stops a spinning script; a call of another session runs on", async () => {
      harness = await startHttpHarness({}, { revision });
      const leaving = await harness.connect();
      const staying = await harness.connect();
      startCall(leaving, spin("left"));
      const other = startCall(
        staying,
        "for (let i = 0; i < 300; i++) { dispatch('count', { key: 'stayed' }); const until = Date.now() + 2; while (Date.now() < until) {} } return 'stayed';",
      );
      expect(await waitUntil(() => counted("left") > 10 && counted("stayed") > 10)).toBe(true);
      await leaving.close();
      expect(await stopped("left")).toBe(true);
      expect((await other).structuredContent?.["output"]).toBe("stayed");
      expect(counted("stayed")).toBe(300);
      expect(await harness.test.idle()).toBe(true);
      expect(harness.test.results).toContainEqual(
        expect.objectContaining({ success: false, errorCode: "CANCELLED" }),
      );
      // The other session is still served.
      const after = await staying.callTool({
        name: "dcc_execute",
        arguments: { code: "return dispatch('tick', {});" },
      });
      expect(after.structuredContent?.["output"]).toBe(1);
    });

    it("client.close() aborts a host command the script is blocked in", async () => {
      harness = await startHttpHarness({}, { revision });
      const leaving = await harness.connect();
      const { journal } = harness.test;
      startCall(
        leaving,
        "await dispatch('block', {}); dispatch('tick', {}); return 'unreachable';",
      );
      expect(await waitUntil(() => journal.calls.includes("block"))).toBe(true);
      await leaving.close();
      // block gives up by itself after 10 s; the cancel must come well before that.
      expect(await waitUntil(() => journal.blockSawCancel, 60_000)).toBe(true);
      expect(await harness.test.idle(60_000)).toBe(true);
      expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
      expect(journal.ticks).toBe(0);
    });

    it("a response that ends normally cancels nothing", async () => {
      harness = await startHttpHarness({}, { revision });
      const client = await harness.connect();
      const done = await client.callTool({
        name: "dcc_execute",
        arguments: { code: "dispatch('tick', {}); return 'done';" },
      });
      expect(done.structuredContent?.["output"]).toBe("done");
      await client.close();
      expect(harness.test.results).toEqual([expect.objectContaining({ success: true })]);
    });
  },
);

describe("a raw POST whose socket is destroyed mid-call", () => {
  it("stops its script on a 2025-11-25 session", async () => {
    harness = await startHttpHarness();
    const init = await rawRequest(harness.url, { headers: jsonRpcHeaders, body: initializeBody });
    const headers = {
      ...jsonRpcHeaders,
      "mcp-session-id": init.headers["mcp-session-id"] as string,
      "mcp-protocol-version": "2025-06-18",
    };
    await rawRequest(harness.url, {
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const post = request(harness.url, { method: "POST", headers });
    post.on("error", () => {});
    post.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "dcc_execute", arguments: { code: spin("raw"), timeout_secs: 60 } },
      }),
    );
    expect(await waitUntil(() => counted("raw") > 10)).toBe(true);
    post.destroy();
    expect(await stopped("raw")).toBe(true);
    expect(await harness.test.idle(60_000)).toBe(true);
    expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
    // The session itself lives on: a new request on it is answered.
    const next = await rawRequest(harness.url, {
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 6,
        method: "tools/call",
        params: { name: "dcc_execute", arguments: { code: "return dispatch('tick', {});" } },
      }),
    });
    expect(next.body).toContain('"output":1');
    expect(harness.server.sessionCount).toBe(1);
  });

  it("stops its script on 2026-07-28", async () => {
    harness = await startHttpHarness();
    const post = request(harness.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "dcc_execute"),
    });
    post.on("error", () => {});
    post.end(
      modernBody(5, "tools/call", {
        name: "dcc_execute",
        arguments: { code: spin("raw"), timeout_secs: 60 },
      }),
    );
    expect(await waitUntil(() => counted("raw") > 10)).toBe(true);
    post.destroy();
    expect(await stopped("raw")).toBe(true);
    expect(await harness.test.idle(60_000)).toBe(true);
    expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
    // Nothing was kept for the request: no session, and the next request is answered.
    const next = await rawRequest(harness.url, {
      headers: modernHeaders("tools/call", "dcc_execute"),
      body: modernBody(6, "tools/call", {
        name: "dcc_execute",
        arguments: { code: "return dispatch('tick', {});" },
      }),
    });
    expect(next.body).toContain('"output":1');
    expect(harness.server.sessionCount).toBe(0);
  });
});

describe("requestIds and withoutRequests", () => {
  const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: {} };
  const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
  const reply = { jsonrpc: "2.0", id: 9, result: {} };

  it("find the requests of a message or a batch, and leave everything else", () => {
    expect(requestIds(call)).toEqual([3]);
    expect(requestIds([note, { ...call, id: "a" }, reply, call])).toEqual(["a", 3]);
    expect(requestIds(note)).toEqual([]);
    expect(requestIds(null)).toEqual([]);
    expect(withoutRequests(call)).toBeUndefined();
    expect(withoutRequests(note)).toBe(note);
    expect(withoutRequests([call, note, reply])).toEqual([note, reply]);
    expect(withoutRequests([call])).toBeUndefined();
  });
});
