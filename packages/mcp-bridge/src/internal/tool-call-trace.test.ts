import { revisions } from "@dcc/mcp-test-clients";
import { recordSpans } from "@dcc/test-support";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "../__fixtures__/http-harness.ts";

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };

const exporter = recordSpans();
// The caller's span, as a client that traces would send it in `_meta`.
const callerTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const callerSpanId = "00f067aa0ba902b7";
const traceparent = `00-${callerTraceId}-${callerSpanId}-01`;

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function spans(name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

function only(name: string): ReadableSpan {
  const found = spans(name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReadableSpan;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe.each(revisions)("tool-call spans (%s)", (revision) => {
  it("parents a dcc_execute call on the caller's traceparent, with script and host-call spans beneath", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const result = (await client.callTool({
      name: "dcc_execute",
      arguments: {
        code: 'dispatch("tick", {}); dispatch("tick", {}); return dispatch("whoami", {});',
      },
      _meta: { traceparent, tracestate: "vendor=1" },
    })) as ToolResult;
    const jobId = result.structuredContent?.["output"];
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const call = only("tools/call dcc_execute");
    expect(call.kind).toBe(SpanKind.SERVER);
    expect(call.spanContext().traceId).toBe(callerTraceId);
    expect(parentOf(call)).toBe(callerSpanId);
    expect(call.spanContext().traceState?.get("vendor")).toBe("1");
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "dcc_execute",
      "dcc.name": "maya",
      "dcc.success": true,
      "dcc.completion": "complete",
      "dcc.dispatch_calls": 3,
      "dcc.job.id": jobId,
      // No labelled token: the name the client gave itself is recorded as its claim only.
      "dcc.client.claimed_name": "test-client",
    });
    expect(call.attributes["dcc.client.label"]).toBeUndefined();
    expect(call.attributes["dcc.client.name"]).toBeUndefined();
    // 2026-07-28 has no transport session.
    if (revision === "2025-11-25") {
      expect(call.attributes["mcp.session.id"]).toMatch(/^[0-9a-f-]{36}$/);
    } else {
      expect(call.attributes["mcp.session.id"]).toBeUndefined();
    }
    const script = only("dcc.script");
    expect(parentOf(script)).toBe(call.spanContext().spanId);
    const ticks = spans("dispatch tick");
    expect(ticks).toHaveLength(2);
    for (const tick of ticks) {
      expect(tick.spanContext().traceId).toBe(callerTraceId);
      expect(parentOf(tick)).toBe(script.spanContext().spanId);
    }
  });

  it("makes a root span without a traceparent and marks a failed script as an error", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const result = (await client.callTool({
      name: "dcc_execute",
      arguments: { code: 'dispatch("fail", {})' },
    })) as ToolResult;
    expect(result.isError).toBe(true);
    const call = only("tools/call dcc_execute");
    expect(call.parentSpanContext).toBeUndefined();
    expect(call.spanContext().traceId).not.toBe(callerTraceId);
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes["error.type"]).toBe("SCRIPT_ERROR");
    expect(only("dispatch fail").status.code).toBe(SpanStatusCode.ERROR);
  });

  it("traces an async job in the call's trace, with a job span that ends when the job ends", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const started = (await client.callTool({
      name: "dcc_execute",
      arguments: { code: 'return dispatch("tick", {});', async: true },
      _meta: { traceparent },
    })) as ToolResult;
    const jobId = started.structuredContent?.["job_id"];
    expect(typeof jobId).toBe("string");
    expect(await waitUntil(() => spans("dcc.job").length === 1)).toBe(true);

    const call = only("tools/call dcc_execute");
    expect(parentOf(call)).toBe(callerSpanId);
    expect(call.attributes["dcc.job.id"]).toBe(jobId);
    const job = only("dcc.job");
    expect(job.spanContext().traceId).toBe(callerTraceId);
    expect(parentOf(job)).toBe(call.spanContext().spanId);
    expect(job.attributes).toMatchObject({ "dcc.job.id": jobId, "dcc.success": true });
    const script = only("dcc.script");
    expect(parentOf(script)).toBe(job.spanContext().spanId);
    expect(parentOf(only("dispatch tick"))).toBe(script.spanContext().spanId);
  });

  it("traces dcc_search calls too", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    await client.callTool({
      name: "dcc_search",
      arguments: { query: "sphere" },
      _meta: { traceparent },
    });
    const call = only("tools/call dcc_search");
    expect(parentOf(call)).toBe(callerSpanId);
    expect(call.attributes["gen_ai.tool.name"]).toBe("dcc_search");
  });
});
