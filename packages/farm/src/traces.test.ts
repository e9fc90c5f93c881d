// One trace from a tool call to the worker that ran its job: the front end (this process, its SDK
// registered by startTracing) and a real dcc-farm-worker process (its SDK from OTEL_* env) export
// to one test OTLP receiver, over http/json.
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "@dcc/test-support";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FarmServer, pollUntil, startFarmServer } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { startWorker, type WorkerProcess } from "./__fixtures__/worker-process.ts";
import { startTracing, type Tracing } from "./start-tracing.ts";

const callerTraceId = "0af7651916cd43dd8448eb211c80319c";
const callerSpanId = "b7ad6b7169203331";

describe.skipIf(!redisTestsRun)(redisTitle("a farm job's trace"), { timeout: 300_000 }, () => {
  let redis: TestRedis;
  let receiver: OtlpReceiver;
  let worker: WorkerProcess | undefined;
  let server: FarmServer | undefined;
  let tracing: Tracing | undefined;

  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
    receiver = await startOtlpReceiver();
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await worker?.stop();
    await tracing?.shutdown();
    await receiver?.close();
    await redis?.stop();
  }, 120_000);

  it("puts the worker's job, script and host-call spans in the tool call's trace", async () => {
    tracing = await startTracing({
      serviceName: "farm-front",
      exporter: new OTLPTraceExporter({ url: receiver.tracesUrl }),
    });
    expect(tracing?.exporters).toEqual(["custom"]);
    worker = await startWorker(redis.url, [], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "50",
    });
    server = await startFarmServer(redis.url);
    const started = await server.execute(
      { code: 'return dispatch("polySphere", { name: "traced" });', async: true },
      { traceparent: `00-${callerTraceId}-${callerSpanId}-01` },
    );
    const jobId = started["job_id"] as string;
    const finished = await pollUntil(
      () => (server as FarmServer).execute({ job_id: jobId, job_action: "status" }),
      (status) => (status["job"] as { status?: string } | undefined)?.status === "completed",
    );
    expect(finished["job"]).toMatchObject({ status: "completed" });
    await tracing?.flush();
    // The worker exports on its schedule, a span once it ended: wait for all five.
    const expected = [
      "tools/call dcc_execute",
      "send jobs-maya",
      "process jobs-maya",
      "dcc.script",
      "dispatch polySphere",
    ];
    const spans = await receiver.waitFor((seen) =>
      expected.every((name) =>
        seen.some((span) => span.name === name && span.traceId === callerTraceId),
      ),
    );
    // The status polls are calls of their own, in traces of their own.
    const byName = (name: string): ReceivedSpan => {
      const found = spans.filter((span) => span.name === name && span.traceId === callerTraceId);
      expect(found, name).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };
    const call = byName("tools/call dcc_execute");
    const send = byName("send jobs-maya");
    const processed = byName("process jobs-maya");
    const script = byName("dcc.script");
    const dispatched = byName("dispatch polySphere");
    expect(spans.filter((span) => span.traceId === callerTraceId)).toHaveLength(5);
    expect(call.parentSpanId).toBe(callerSpanId);
    expect(call.serviceName).toBe("farm-front");
    expect(send.parentSpanId).toBe(call.spanId);
    expect(send.attributes).toMatchObject({ "messaging.message.id": jobId });
    expect(processed.parentSpanId).toBe(send.spanId);
    expect(processed.serviceName).toBe("dcc-farm-worker");
    expect(processed.attributes).toMatchObject({ "dcc.job.id": jobId, "dcc.success": true });
    expect(script.parentSpanId).toBe(processed.spanId);
    expect(script.serviceName).toBe("dcc-farm-worker");
    expect(dispatched.parentSpanId).toBe(script.spanId);
  });
});
