import { revisions, type ToolResult } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "../__fixtures__/http-harness.ts";
import {
  initializeBody,
  jsonRpcHeaders,
  modernBody,
  modernHeaders,
  rawRequest,
} from "../__fixtures__/raw-http.ts";

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(revisions)("dcc_execute cancellation (%s)", (revision) => {
  it("stops a script mid-loop on notifications/cancelled and runs no further dispatch", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const { journal } = harness.test;
    const abort = new AbortController();
    const call = client.callTool(
      {
        name: "dcc_execute",
        arguments: {
          // Endless: only the cancel (or, failing it, the deadline: TIMEOUT) can end it.
          code: "for (;;) { dispatch('tick', {}); }",
        },
      },
      { signal: abort.signal },
    );
    expect(await waitUntil(() => journal.ticks >= 3)).toBe(true);
    abort.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    expect(await harness.test.idle()).toBe(true);
    const ticksAtStop = journal.ticks;
    expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(journal.ticks).toBe(ticksAtStop);
  });

  it("stops a script spinning without any dispatch", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const abort = new AbortController();
    const call = client.callTool(
      {
        name: "dcc_execute",
        arguments: { code: "dispatch('tick', {}); let n = 0; while (true) { n++; }" },
      },
      { signal: abort.signal },
    );
    expect(await waitUntil(() => harness?.test.journal.ticks === 1)).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(await harness.test.idle()).toBe(true);
    expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
  });

  it("cancels a host command mid-dispatch through checkCancelled() and the command signal", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const { journal } = harness.test;
    const abort = new AbortController();
    const call = client.callTool(
      {
        name: "dcc_execute",
        arguments: { code: "await dispatch('block', {}); await dispatch('tick', {});" },
      },
      { signal: abort.signal },
    );
    expect(await waitUntil(() => journal.calls.includes("block"))).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(await harness.test.idle()).toBe(true);
    // The host command notices within its next poll; the script may have answered already.
    expect(await waitUntil(() => journal.blockSawCancel)).toBe(true);
    expect(journal.calls).not.toContain("tick");
  });
});

describe.each(revisions)("dcc_execute cancellation races (%s)", (revision) => {
  it("stops a script cancelled while its sandbox is still starting", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const abort = new AbortController();
    const call = client.callTool(
      {
        name: "dcc_execute",
        arguments: { code: "dispatch('tick', {}); for (;;) {}", timeout_secs: 20 },
      },
      { signal: abort.signal },
    );
    abort.abort();
    await expect(call).rejects.toThrow();
    // A later call on the same session proves the server has seen (and settled) the first.
    await client.callTool({ name: "dcc_execute", arguments: { code: "return 1;" } });
    expect(await harness.test.idle(10_000)).toBe(true);
    // Either the request was dropped (it never ran) or it ran and stopped as cancelled.
    const cancelled = harness.test.results.filter((result) => result["output"] !== 1);
    expect(cancelled.length).toBeLessThanOrEqual(1);
    for (const result of cancelled) expect(result).toMatchObject({ success: false });
    expect(harness.test.results.some((result) => result["output"] === 1)).toBe(true);
  });
});

// The SDK clients run a notification's handler a microtask after reading it, and drop a progress
// notification whose request has been answered by then: the last one can be lost when it arrives
// in the same read as the result. So the clients' tests check the order, and the raw test below
// checks that the last value is on the wire before the result.
describe("dcc_execute progress on the wire (2026-07-28)", () => {
  it("sends every last progress value before the result on the request's own stream", async () => {
    harness = await startHttpHarness({}, { revision: "2026-07-28" });
    const response = await rawRequest(harness.url, {
      headers: modernHeaders("tools/call", "dcc_execute"),
      body: modernBody(7, "tools/call", {
        name: "dcc_execute",
        arguments: {
          code: "for (let i = 1; i <= 20; i++) { progress(i, 20); dispatch('tick', {}); }\nreturn 'ok';",
        },
        _meta: { progressToken: "p" },
      }),
    });
    expect(response.headers["content-type"]).toMatch(/text\/event-stream/);
    const messages = response.body
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
    const progress = messages
      .filter((message) => message["method"] === "notifications/progress")
      .map((message) => (message["params"] as { progress: number }).progress);
    expect(progress[0]).toBe(1);
    expect(progress.at(-1)).toBe(20);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]).toBeGreaterThan(progress[i - 1] as number);
    // The result is the last message of the stream.
    expect(messages.at(-1)).toMatchObject({
      id: 7,
      result: { structuredContent: { output: "ok" } },
    });
  });
});

describe.each(revisions)("dcc_execute progress and logs (%s)", (revision) => {
  it("turns progress() into increasing notifications/progress", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const seen: number[] = [];
    const result = (await client.callTool(
      {
        name: "dcc_execute",
        arguments: {
          code: "for (let i = 1; i <= 20; i++) { progress(i, 20, 'step ' + i); dispatch('tick', {}); }\nreturn 'ok';",
        },
      },
      { onprogress: (progress) => seen.push(progress.progress) },
    )) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(seen[0]).toBe(1);
    expect(Math.max(...seen)).toBeLessThanOrEqual(20);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
  });

  it("streams console lines as log notifications only once the client asks for a level", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const messages: unknown[] = [];
    client.onLog((params) => {
      messages.push(params);
    });
    await client.callTool({
      name: "dcc_execute",
      arguments: { code: "console.log('before level'); return 1;" },
    });
    expect(messages).toEqual([]);
    await client.setLogLevel("warning");
    await client.callTool({
      name: "dcc_execute",
      arguments: {
        code: "console.log('quiet'); console.warn('careful'); console.error('broken'); return 1;",
      },
    });
    expect(messages).toEqual([
      { level: "warning", logger: "maya", data: "careful" },
      { level: "error", logger: "maya", data: "broken" },
    ]);
  });
});

describe("dcc_execute on a 2025-11-25 session", () => {
  it("ends a cancelled call's response stream instead of holding its connection open", async () => {
    harness = await startHttpHarness();
    const url = harness.url;
    const init = await rawRequest(url, { headers: jsonRpcHeaders, body: initializeBody });
    const headers = {
      ...jsonRpcHeaders,
      "mcp-session-id": init.headers["mcp-session-id"] as string,
      "mcp-protocol-version": "2025-06-18",
    };
    const post = (message: unknown, timeoutMs?: number) =>
      rawRequest(url, {
        headers,
        body: JSON.stringify(message),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = post(
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "dcc_execute", arguments: { code: "dispatch('tick', {}); for (;;) {}" } },
      },
      60_000,
    );
    expect(await waitUntil(() => harness?.test.journal.ticks === 1, 30_000)).toBe(true);
    await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    let open: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      call,
      new Promise<"still open">(
        (resolve) => (open = setTimeout(() => resolve("still open"), 20_000)),
      ),
    ]);
    clearTimeout(open);
    // Ended with no answer: a cancelled request is owed none.
    expect(ended).toMatchObject({ status: 200 });
    expect(ended === "still open" ? "" : ended.body).not.toContain('"id":5');
    expect(await harness.test.idle()).toBe(true);
    expect(harness.test.results.at(-1)).toMatchObject({ success: false, errorCode: "CANCELLED" });
  }, 60_000);

  it("drops a request whose notifications/cancelled arrived before it", async () => {
    harness = await startHttpHarness();
    const init = await rawRequest(harness.url, { headers: jsonRpcHeaders, body: initializeBody });
    const headers = {
      ...jsonRpcHeaders,
      "mcp-session-id": init.headers["mcp-session-id"] as string,
      "mcp-protocol-version": "2025-06-18",
    };
    const post = (message: unknown) =>
      rawRequest(harness?.url ?? "", { headers, body: JSON.stringify(message) });
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 77 } });
    const dropped = await post({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "dcc_execute", arguments: { code: "dispatch('block', {});" } },
    });
    expect(dropped.status).toBe(202);
    const next = await post({
      jsonrpc: "2.0",
      id: 78,
      method: "tools/call",
      params: { name: "dcc_execute", arguments: { code: "return dispatch('tick', {});" } },
    });
    expect(next.body).toContain('"output":1');
    expect(harness.test.journal.calls).toEqual(["tick"]);
  });

  it("cancels running calls when the session's transport closes (DELETE)", async () => {
    harness = await startHttpHarness();
    const client = await harness.connect();
    const { journal } = harness.test;
    const call = client.callTool({
      name: "dcc_execute",
      arguments: { code: "await dispatch('block', {});" },
    });
    call.catch(() => {});
    expect(await waitUntil(() => journal.calls.includes("block"))).toBe(true);
    await client.terminateSession();
    expect(await harness.test.idle()).toBe(true);
    // The host command notices within its next poll; the script may have answered already.
    expect(await waitUntil(() => journal.blockSawCancel)).toBe(true);
    expect(harness.server.sessionCount).toBe(0);
  });
});
