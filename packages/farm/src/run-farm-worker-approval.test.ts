// runFarmWorker's `approval` in this process against a real redis-server and the simulated Maya:
// a pre-approved job's commands run and its end event (the audit line's source) and its spans
// say so; a rule the adapter cannot take stops the worker before it takes jobs, its DCC closed.
import { randomUUID } from "node:crypto";
import { commandApprovalRule, type DccAdapter } from "@dcc/executor";
import { createMayaAdapter } from "@dcc/maya";
import type { DccToolCallEvent } from "@dcc/mcp-bridge";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { createFarmJobQueue, type FarmJobQueue } from "./farm-job-queue.ts";
import { type FarmWorker, runFarmWorker } from "./run-farm-worker.ts";
import { startTracing, type Tracing } from "./start-tracing.ts";

const rule = "remove-nodes";
const approval = {
  ask: [rule],
  rules: [commandApprovalRule({ name: rule, commands: ["delete"] })],
};

describe.skipIf(!redisTestsRun)(
  redisTitle("runFarmWorker with approval rules"),
  { timeout: 300_000 },
  () => {
    let redis: TestRedis;
    let queue: FarmJobQueue;
    let worker: FarmWorker | undefined;
    let tracing: Tracing | undefined;
    const exporter = new InMemorySpanExporter();
    const events: DccToolCallEvent[] = [];
    const pool = "maya-approval";

    beforeAll(async () => {
      assertRedis();
      redis = await startRedis();
      tracing = await startTracing({ serviceName: "farm-approval-test", exporter });
      queue = createFarmJobQueue({ redis: { url: redis.url }, pools: { maya: pool } });
      worker = await runFarmWorker({
        redis: { url: redis.url },
        pool,
        adapter: createMayaAdapter(),
        approval,
        onToolCall: (event) => events.push(event),
      });
    }, 120_000);

    afterAll(async () => {
      await worker?.close();
      await queue?.close();
      await tracing?.shutdown();
      await redis?.stop();
    }, 120_000);

    it("runs a pre-approved job's commands; its end event and its spans record the pre-approval", async () => {
      const record = await queue.submit({
        jobId: randomUUID(),
        dccName: "maya",
        code: 'dispatch("polySphere", { name: "ball" }); dispatch("delete", "ball"); return dispatch("objExists", "ball");',
        // Each rule once in the job, however often the submission names it.
        preapproved: [rule, rule],
      });
      const done = await pollUntil(
        () => queue.get(record.jobId),
        (value) => value?.finishedAt !== undefined,
      );
      expect(done).toMatchObject({ status: "completed", result: { success: true, output: false } });
      const approvals = [
        expect.objectContaining({
          rule,
          command: "delete",
          summary: 'delete "ball"',
          answer: "preapproved",
        }),
      ];
      expect(done?.result).toMatchObject({ stats: { approvals } });

      // What the worker's audit line is made of: the job's result, approvals included.
      const [event] = events.filter((each) => each.jobId === record.jobId);
      expect(event).toMatchObject({ phase: "job", async: true, result: { stats: { approvals } } });

      await tracing?.flush();
      const spans = exporter.getFinishedSpans();
      const job = spans.find((span) => span.attributes["dcc.job.id"] === record.jobId);
      expect(job?.name).toBe(`process jobs-${pool}`);
      expect(job?.attributes["dcc.job.preapproved"]).toEqual([rule]);
      const script = spans.find(
        (span) => span.parentSpanContext?.spanId === job?.spanContext().spanId,
      );
      expect(script?.events.find((each) => each.name === "dcc.approval")?.attributes).toMatchObject(
        { "dcc.approval.rule": rule, "dcc.approval.answer": "preapproved" },
      );
    });

    it("refuses a custom rule over commands the adapter lacks, and closes the adapter it started", async () => {
      const maya = createMayaAdapter();
      let closed = false;
      const adapter: DccAdapter = {
        ...maya,
        commands: () => maya.commands(),
        catalog: () => maya.catalog(),
        close: async () => {
          closed = true;
          await maya.close?.();
        },
      };
      await expect(
        runFarmWorker({
          redis: { url: redis.url },
          pool,
          adapter,
          approval: {
            ask: ["publish"],
            rules: [commandApprovalRule({ name: "publish", commands: ["exportEverything"] })],
          },
        }),
      ).rejects.toMatchObject({
        code: "INVALID_APPROVAL_RULE",
        message: "Approval rule 'publish' names commands maya does not have: exportEverything",
      });
      expect(closed).toBe(true);
    });
  },
);
