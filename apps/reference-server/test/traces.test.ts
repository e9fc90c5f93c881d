// Traces from the reference server's process, as a collector sees them: the CLI registers the SDK
// from OTEL_* env and exports to a test OTLP receiver; without OTEL_* it exports nothing.
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "@dcc/test-support";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CliProcess,
  connectHttp,
  spawnCli,
  startupUrl,
  stopCli,
} from "./__fixtures__/mcp-helpers.ts";

const callerTraceId = "5b8efff798038103d269b633813fc60c";
const callerSpanId = "eee19b7ec3c1b174";
const traceparent = `00-${callerTraceId}-${callerSpanId}-01`;
// 1000 host calls: far more than the 100 that get spans of their own.
const manyCalls =
  'let found = 0; for (let i = 0; i < 1000; i++) if (dispatch("objExists", ["nothing"])) found++; return found;';

const started: CliProcess[] = [];
const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  for (const cli of started.splice(0)) await stopCli(cli, "SIGKILL").catch(() => {});
  for (const receiver of receivers.splice(0)) await receiver.close();
});

/** This process's environment without OTEL_* (the CLI must see only what a test gives it). */
function withoutOtel(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => name.startsWith("OTEL_"))
      .map((name) => [name, undefined]),
  );
}

async function startCli(env: Record<string, string>): Promise<{ cli: CliProcess; url: string }> {
  const cli = spawnCli(["--port", "0"], { ...withoutOtel(), ...env } as Record<string, string>);
  started.push(cli);
  return { cli, url: await startupUrl(cli) };
}

async function receiver(): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver();
  receivers.push(started);
  return started;
}

async function callWithTraceparent(url: string, code: string): Promise<Record<string, unknown>> {
  const client = await connectHttp(url);
  try {
    const result = await client.callTool({
      name: "dcc_execute",
      arguments: { code },
      _meta: { traceparent },
    });
    return result.structuredContent as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

describe("traces from the reference server", { timeout: 300_000 }, () => {
  it("exports a dcc_execute call's spans over http/json in the caller's trace, host calls capped", async () => {
    const collector = await receiver();
    const { cli, url } = await startCli({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_SERVICE_NAME: "reference-under-test",
    });
    expect(cli.stderr()).toContain("traces to otlp (http/json)");
    expect(await callWithTraceparent(url, manyCalls)).toMatchObject({ success: true, output: 0 });
    // Batches may arrive in any order: wait for the call, the script and the capped host calls.
    await collector.waitFor(
      (seen) =>
        seen.some((span) => span.name === "tools/call dcc_execute") &&
        seen.some((span) => span.name === "dcc.script") &&
        seen.filter((span) => span.name === "dispatch objExists").length >= 100,
    );
    // Its shutdown flushes the rest: nothing more can come after it.
    expect(await stopCli(cli, "SIGTERM")).toBe(0);
    const spans = collector.spans();
    expect(collector.exports.every((entry) => entry.path === "/v1/traces")).toBe(true);
    const call = spans.find((span) => span.name === "tools/call dcc_execute") as ReceivedSpan;
    expect(call.parentSpanId).toBe(callerSpanId);
    expect(call.serviceName).toBe("reference-under-test");
    expect(call.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "dcc_execute",
      "dcc.name": "maya",
      "dcc.success": true,
      "dcc.dispatch_calls": 1000,
    });
    const scripts = spans.filter((span) => span.name === "dcc.script");
    expect(scripts).toHaveLength(1);
    const script = scripts[0] as ReceivedSpan;
    expect(script.parentSpanId).toBe(call.spanId);
    expect(script.attributes).toMatchObject({
      "dcc.host_calls.count": 1000,
      "dcc.host_calls.spans": 100,
    });
    expect(script.events.find((event) => event.name === "dcc.host_calls.summary")).toMatchObject({
      attributes: { "dcc.commands": ["objExists"], "dcc.command.counts": [1000] },
    });
    const hostCalls = spans.filter((span) => span.name === "dispatch objExists");
    expect(hostCalls).toHaveLength(100);
    for (const span of [call, script, ...hostCalls]) expect(span.traceId).toBe(callerTraceId);
    for (const span of hostCalls) expect(span.parentSpanId).toBe(script.spanId);
  });

  it("exports http/protobuf by default, sent when the server shuts down", async () => {
    const collector = await receiver();
    // A schedule far past the test: only the shutdown's flush sends the spans.
    const { cli, url } = await startCli({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: "3600000",
    });
    expect(cli.stderr()).toContain("traces to otlp (http/protobuf)");
    expect(await callWithTraceparent(url, 'return dispatch("objExists", ["x"]);')).toMatchObject({
      success: true,
    });
    expect(await stopCli(cli, "SIGTERM")).toBe(0);
    expect(collector.exports.length).toBeGreaterThan(0);
    const body = Buffer.concat(collector.exports.map((entry) => entry.body));
    for (const entry of collector.exports) {
      expect(entry.contentType).toBe("application/x-protobuf");
    }
    // Protobuf carries ids as raw bytes and names as UTF-8.
    expect(body.includes(Buffer.from(callerTraceId, "hex"))).toBe(true);
    expect(body.includes(Buffer.from(callerSpanId, "hex"))).toBe(true);
    expect(body.includes(Buffer.from("tools/call dcc_execute"))).toBe(true);
  });

  it("exports nothing when tracing is not asked for or is disabled, and calls still work", async () => {
    const collector = await receiver();
    for (const env of [
      {},
      { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
    ]) {
      const { cli, url } = await startCli({ ...env, OTEL_BSP_SCHEDULE_DELAY: "50" });
      expect(cli.stderr()).not.toContain("traces to");
      expect(await callWithTraceparent(url, 'return dispatch("objExists", ["x"]);')).toMatchObject({
        success: true,
      });
      // A shutdown flushes whatever a provider holds: after it, nothing can still be on its way.
      expect(await stopCli(cli, "SIGTERM")).toBe(0);
    }
    expect(collector.exports).toEqual([]);
  });

  it("refuses an exporter it does not know, by name", async () => {
    const cli = spawnCli(["--port", "0"], {
      ...withoutOtel(),
      OTEL_TRACES_EXPORTER: "zipkin",
    } as Record<string, string>);
    started.push(cli);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain(
      "OTEL_TRACES_EXPORTER names zipkin; supported: otlp, console, none",
    );
  });
});
