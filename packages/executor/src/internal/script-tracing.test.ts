import { recordSpans } from "@dcc/test-support";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, it } from "vitest";
import { pool, registry } from "../__fixtures__/executor-under-test.ts";
import { commandApprovalRule } from "../approval.ts";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import { ToolDispatcher } from "../tool-dispatcher.ts";

const exporter = recordSpans();
const executor = new DccApiExecutor("maya", {
  dispatcher: new ToolDispatcher(registry),
  pool,
  maxHostCallSpans: 5,
});

afterAll(async () => {
  await pool.close();
});

/** Runs `code` under a test span and returns that span's id and the spans it produced. */
async function traced(code: string): Promise<{ parentId: string; spans: ReadableSpan[] }> {
  const tracer = trace.getTracer("test");
  const parent = tracer.startSpan("caller");
  await context.with(trace.setSpan(context.active(), parent), () => executor.execute(code));
  parent.end();
  const spans = exporter.getFinishedSpans();
  for (const span of spans) {
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  }
  return { parentId: parent.spanContext().spanId, spans };
}

describe("script and host-call spans", () => {
  it("makes a script span under the caller and a child span per host call up to the cap", async () => {
    const { parentId, spans } = await traced(
      "let sum = 0; for (let i = 0; i < 1000; i++) sum += dispatch('add', { a: i, b: 1 }); dispatch('echo', 1); return sum;",
    );
    const script = spans.find((span) => span.name === "dcc.script");
    expect(script?.parentSpanContext?.spanId).toBe(parentId);
    expect(script?.attributes).toMatchObject({
      "dcc.name": "maya",
      "dcc.script.success": true,
      "dcc.completion": "complete",
      "dcc.dispatch_calls": 1001,
      "dcc.host_calls.count": 1001,
      "dcc.host_calls.spans": 5,
    });
    const calls = spans.filter((span) => span.name.startsWith("dispatch "));
    expect(calls).toHaveLength(5);
    for (const call of calls) {
      expect(call.name).toBe("dispatch add");
      expect(call.parentSpanContext?.spanId).toBe(script?.spanContext().spanId);
    }
    const summary = script?.events.find((event) => event.name === "dcc.host_calls.summary");
    expect(summary?.attributes).toMatchObject({
      "dcc.commands": ["add", "echo"],
      "dcc.command.counts": [1000, 1],
      "dcc.command.errors": [0, 0],
    });
  });

  it("marks a failed command and a failed script as errors", async () => {
    const { spans } = await traced("dispatch('fail', {})");
    const call = spans.find((span) => span.name === "dispatch fail");
    expect(call?.status.code).toBe(SpanStatusCode.ERROR);
    expect(call?.status.message).toContain("No object matches name: foo");
    const script = spans.find((span) => span.name === "dcc.script");
    expect(script?.status.code).toBe(SpanStatusCode.ERROR);
    expect(script?.attributes["error.type"]).toBe("SCRIPT_ERROR");
    expect(script?.attributes["dcc.script.success"]).toBe(false);
  });

  it("adds a dcc.approval event per question to the script span", async () => {
    const approving = new DccApiExecutor("maya", {
      dispatcher: new ToolDispatcher(registry),
      pool,
      approval: {
        rules: [
          commandApprovalRule({ name: "publish", commands: ["echo"] }),
          commandApprovalRule({ name: "tally", commands: ["add"] }),
        ],
      },
    });
    const result = await approving.execute(
      'dispatch("echo", 1); dispatch("echo", 2); try { dispatch("add", { a: 1, b: 2 }) } catch {} return 1',
      {
        approve: async (question) =>
          question.rule === "publish"
            ? { approved: true, by: "lead" }
            : { approved: false, reason: "declined" },
      },
    );
    expect(result.success).toBe(true);
    const script = exporter.getFinishedSpans().find((span) => span.name === "dcc.script");
    const events = script?.events.filter((event) => event.name === "dcc.approval") ?? [];
    expect(events.map((event) => event.attributes)).toEqual([
      {
        "dcc.approval.rule": "publish",
        "dcc.command": "echo",
        "dcc.approval.summary": "echo 1",
        "dcc.approval.answer": "approved",
        "dcc.approval.by": "lead",
        "dcc.approval.waited_ms": expect.any(Number),
      },
      {
        "dcc.approval.rule": "tally",
        "dcc.command": "add",
        "dcc.approval.summary": 'add {"a":1,"b":2}',
        "dcc.approval.answer": "declined",
        "dcc.approval.waited_ms": expect.any(Number),
      },
    ]);
  });

  it("refuses a negative cap", () => {
    expect(() => new DccApiExecutor("maya", { pool, maxHostCallSpans: -1 })).toThrow(
      /maxHostCallSpans must be a whole number of at least 0, not -1/,
    );
  });
});
