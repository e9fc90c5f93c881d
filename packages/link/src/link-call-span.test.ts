import { recordSpans } from "@dcc/test-support";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";

const exporter = recordSpans();

afterEach(async () => {
  await closeTestHosts();
});

describe("link call spans", () => {
  it("traces each call as a client span under the caller's span, failures with their code", async () => {
    const host = await startTestHost({ loop: "blocking" });
    const parent = trace.getTracer("test").startSpan("host call");
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await expect(host.call("echo", { a: 1 })).resolves.toEqual({ a: 1 });
      await expect(host.call("missing")).rejects.toMatchObject({ remoteCode: "UNKNOWN_METHOD" });
    });
    parent.end();
    const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith("link.call"));
    expect(spans.map((span) => span.name)).toEqual(["link.call echo", "link.call missing"]);
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    }
    expect(spans[0]?.attributes).toMatchObject({ "rpc.system": "dcc_link", "rpc.method": "echo" });
    expect(spans[0]?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(spans[1]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[1]?.attributes).toMatchObject({
      "error.type": "REMOTE_ERROR",
      "dcc.completion": "not_started",
    });
  });
});
