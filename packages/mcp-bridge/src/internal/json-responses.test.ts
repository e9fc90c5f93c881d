import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness } from "../__fixtures__/http-harness.ts";
import { initializeBody, jsonRpcHeaders, rawRequest } from "../__fixtures__/raw-http.ts";
import { answersAsJson } from "./json-responses.ts";

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const call = (id: number, name: string, args: unknown, meta?: unknown): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  });

async function openSession(url: string): Promise<Record<string, string>> {
  const opened = await rawRequest(url, { headers: jsonRpcHeaders, body: initializeBody });
  expect(opened.status).toBe(200);
  const headers = {
    ...jsonRpcHeaders,
    "mcp-session-id": opened.headers["mcp-session-id"] as string,
    "mcp-protocol-version": "2025-06-18",
  };
  const initialized = await rawRequest(url, {
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(initialized.status).toBe(202);
  return headers;
}

describe("answering requests as plain JSON", () => {
  it("answers a search without a progress token as one JSON body, other calls as SSE", async () => {
    harness = await startHttpHarness();
    const headers = await openSession(harness.url);

    const search = await rawRequest(harness.url, {
      headers,
      body: call(2, "dcc_search", { query: "sphere" }),
    });
    expect(search.status).toBe(200);
    expect(search.headers["content-type"]).toContain("application/json");
    const parsed = JSON.parse(search.body) as { id: number; result: Record<string, unknown> };
    expect(parsed.id).toBe(2);
    expect(parsed.result["structuredContent"]).toMatchObject({ success: true });

    const tracked = await rawRequest(harness.url, {
      headers,
      body: call(3, "dcc_search", { query: "sphere" }, { progressToken: "p" }),
    });
    expect(tracked.headers["content-type"]).toContain("text/event-stream");
    expect(tracked.body).toContain('"id":3');

    const execute = await rawRequest(harness.url, {
      headers,
      body: call(
        4,
        "dcc_execute",
        { code: "progress(1, 2, 'half'); return 7;" },
        { progressToken: "run" },
      ),
    });
    expect(execute.headers["content-type"]).toContain("text/event-stream");
    expect(execute.body).toContain("notifications/progress");
    expect(execute.body).toContain('"id":4');

    // The same session still answers JSON afterwards: the choice is per request.
    const again = await rawRequest(harness.url, {
      headers,
      body: call(5, "dcc_search", { query: "sphere" }),
    });
    expect(again.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(again.body)).toMatchObject({ id: 5 });
  });

  it("picks only single tools/call requests of quiet tools without a progress token", () => {
    const quiet = new Set(["dcc_search"]);
    const message = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
    expect(answersAsJson(message({ name: "dcc_search", arguments: {} }), quiet)).toBe(true);
    expect(answersAsJson(message({ name: "dcc_search", _meta: {} }), quiet)).toBe(true);
    expect(answersAsJson(message({ name: "dcc_search", _meta: { progressToken: 0 } }), quiet)).toBe(
      false,
    );
    expect(answersAsJson(message({ name: "dcc_execute" }), quiet)).toBe(false);
    expect(answersAsJson([message({ name: "dcc_search" })], quiet)).toBe(false);
    expect(answersAsJson({ jsonrpc: "2.0", id: 1, method: "tools/list" }, quiet)).toBe(false);
  });
});
