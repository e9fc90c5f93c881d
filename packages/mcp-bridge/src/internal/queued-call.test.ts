// With syncCallsOnQueue, a synchronous script call is a job on the queue, awaited: its result,
// progress and cancel go through the queue, and nothing runs in this process.
import { randomUUID } from "node:crypto";
import { revisions } from "@dcc/mcp-test-clients";
import { describe, expect, it } from "vitest";
import { startHttpHarness, waitUntil } from "../__fixtures__/http-harness.ts";
import type { JobWorkContext } from "../job-manager.ts";
import type { JobQueue, JobQueueCancelOptions, JobQueueSubmission } from "../job-queue.ts";
import type { JobRecord } from "../job-store.ts";
import { createCallToken } from "./call-context.ts";
import { runQueuedCall } from "./queued-call.ts";

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };

/** A queue whose jobs a test runs by hand: `progress`, `finish`; a cancel stops a job at once. */
class ManualQueue implements JobQueue {
  readonly submissions: JobQueueSubmission[] = [];
  readonly cancels: Array<{ jobId: string; options: JobQueueCancelOptions }> = [];
  readonly records = new Map<string, JobRecord>();
  readiness: Error | undefined;
  async submit(submission: JobQueueSubmission): Promise<JobRecord> {
    this.submissions.push(submission);
    const record: JobRecord = {
      jobId: submission.jobId,
      dccName: submission.dccName,
      status: "pending",
      createdAt: Date.now(),
    };
    this.records.set(record.jobId, record);
    return { ...record };
  }
  async get(jobId: string): Promise<JobRecord | undefined> {
    const record = this.records.get(jobId);
    return record === undefined ? undefined : { ...record };
  }
  async cancel(jobId: string, options: JobQueueCancelOptions): Promise<JobRecord | undefined> {
    this.cancels.push({ jobId, options });
    this.finish(jobId, {
      success: false,
      message: "cancelled on the worker",
      errorCode: "CANCELLED",
    });
    const record = this.records.get(jobId);
    if (record !== undefined) record.status = "cancelled";
    return record === undefined ? undefined : { ...record };
  }
  async ready(): Promise<void> {
    if (this.readiness !== undefined) throw this.readiness;
  }
  progress(jobId: string, progress: number): void {
    const record = this.records.get(jobId) as JobRecord;
    record.status = "running";
    record.progress = { progress, total: 10 };
  }
  finish(jobId: string, result: NonNullable<JobRecord["result"]>): void {
    const record = this.records.get(jobId) as JobRecord;
    record.status = result.success ? "completed" : "failed";
    record.finishedAt = Date.now();
    record.result = result;
  }
}

describe.each(revisions)("synchronous calls on the job queue (%s)", (revision) => {
  it("queues the script under the call's id, forwards progress and answers with the job's result", async () => {
    const queue = new ManualQueue();
    const harness = await startHttpHarness(
      { jobQueue: queue, syncCallsOnQueue: true },
      { revision },
    );
    try {
      const client = await harness.connect();
      const progress: number[] = [];
      const answer = client.callTool(
        { name: "dcc_execute", arguments: { code: "return 1;" } },
        { onprogress: (report) => progress.push(report.progress) },
      );
      expect(await waitUntil(() => queue.submissions.length === 1)).toBe(true);
      const submission = queue.submissions[0] as JobQueueSubmission;
      // The server's default timeout is stated, so the worker's and the wait's agree.
      expect(submission).toMatchObject({
        dccName: "maya",
        code: "return 1;",
        timeoutSecs: expect.any(Number),
      });
      queue.progress(submission.jobId, 3);
      expect(await waitUntil(() => progress.includes(3))).toBe(true);
      queue.finish(submission.jobId, { success: true, message: "ran on a worker", output: 42 });
      const result = (await answer) as ToolResult;
      expect(result.structuredContent).toMatchObject({ success: true, output: 42 });
      // Nothing ran in this process.
      expect(harness.test.results).toHaveLength(0);
    } finally {
      await harness.close();
    }
  });

  it("cancels the job when the client cancels the call", async () => {
    const queue = new ManualQueue();
    const harness = await startHttpHarness(
      { jobQueue: queue, syncCallsOnQueue: true },
      { revision },
    );
    try {
      const client = await harness.connect();
      const abort = new AbortController();
      const answer = client.callTool(
        { name: "dcc_execute", arguments: { code: "for (;;) {}" } },
        { signal: abort.signal },
      );
      answer.catch(() => {});
      expect(await waitUntil(() => queue.submissions.length === 1)).toBe(true);
      abort.abort();
      expect(await waitUntil(() => queue.cancels.length === 1)).toBe(true);
      expect(queue.cancels[0]).toMatchObject({
        jobId: queue.submissions[0]?.jobId,
        options: { reason: expect.stringContaining("cancelled") },
      });
      await expect(answer).rejects.toThrow();
    } finally {
      await harness.close();
    }
  });

  it("answers JOB_QUEUE_UNAVAILABLE when the queue is down, and /readyz says why", async () => {
    const queue = new ManualQueue();
    queue.readiness = new Error("Redis at redis://127.0.0.1:1 did not answer");
    queue.submit = () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1"));
    const harness = await startHttpHarness(
      { jobQueue: queue, syncCallsOnQueue: true },
      { revision },
    );
    try {
      const client = await harness.connect();
      const result = (await client.callTool({
        name: "dcc_execute",
        arguments: { code: "return 1;" },
      })) as ToolResult;
      expect(result.structuredContent).toMatchObject({
        success: false,
        errorCode: "JOB_QUEUE_UNAVAILABLE",
        error: expect.stringContaining("ECONNREFUSED"),
      });
      const base = new URL(harness.url);
      const down = await fetch(new URL("/readyz", base));
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({
        reasons: ["The job queue is unavailable: Redis at redis://127.0.0.1:1 did not answer"],
      });
      queue.readiness = undefined;
      expect((await fetch(new URL("/readyz", base))).status).toBe(200);
    } finally {
      await harness.close();
    }
  });

  it("runs synchronous calls here without syncCallsOnQueue", async () => {
    const queue = new ManualQueue();
    const harness = await startHttpHarness({ jobQueue: queue }, { revision });
    try {
      const client = await harness.connect();
      const result = (await client.callTool({
        name: "dcc_execute",
        arguments: { code: "return 2;" },
      })) as ToolResult;
      expect(result.structuredContent).toMatchObject({ success: true, output: 2 });
      expect(queue.submissions).toHaveLength(0);
    } finally {
      await harness.close();
    }
  });
});

describe("runQueuedCall", () => {
  const context = (): JobWorkContext => {
    const jobId = randomUUID();
    return { jobId, token: createCallToken(jobId, undefined), reportProgress: () => {} };
  };
  const submission = { dccName: "maya", code: "for (;;) {}" };

  it("cancels a job that is still unfinished past its timeout plus the margin, and answers TIMEOUT", async () => {
    // The job never finishes, so only the wait's bound can end the call.
    const queue = new ManualQueue();
    const call = context();
    const result = await runQueuedCall(queue, call, { submission, timeoutSecs: 0, marginSecs: 0 });
    expect(result).toMatchObject({
      success: false,
      errorCode: "TIMEOUT",
      completion: "not_started",
      job_id: call.jobId,
      error: expect.stringContaining("with async: true"),
    });
    expect(queue.cancels.map((cancel) => cancel.jobId)).toEqual([call.jobId]);
  });

  it("answers JOB_QUEUE_UNAVAILABLE with the job id when the queue stops answering mid-wait", async () => {
    const queue = new ManualQueue();
    queue.get = () => Promise.reject(new Error("Redis at redis://127.0.0.1:1 did not answer"));
    const call = context();
    expect(await runQueuedCall(queue, call, { submission, timeoutSecs: 30 })).toMatchObject({
      success: false,
      errorCode: "JOB_QUEUE_UNAVAILABLE",
      error: "Redis at redis://127.0.0.1:1 did not answer",
      job_id: call.jobId,
    });
  });

  it("answers JOB_NOT_FOUND when the job's record is gone", async () => {
    const queue = new ManualQueue();
    queue.get = async () => undefined;
    const call = context();
    expect(await runQueuedCall(queue, call, { submission, timeoutSecs: 30 })).toMatchObject({
      success: false,
      errorCode: "JOB_NOT_FOUND",
      job_id: call.jobId,
    });
  });

  it("cancels the job at once when the call was already cancelled", async () => {
    const queue = new ManualQueue();
    const call = context();
    call.token.cancel("Request cancelled by client");
    expect(await runQueuedCall(queue, call, { submission, timeoutSecs: 30 })).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
    });
    expect(queue.cancels.map((cancel) => cancel.jobId)).toEqual([call.jobId]);
  });
});
