// With a JobQueue configured, async calls and job actions go to it, and a queue that cannot be
// reached fails only the job calls.
import { ScriptNotFoundError } from "@dcc/executor";
import { revisions } from "@dcc/mcp-test-clients";
import { describe, expect, it } from "vitest";
import { startHttpHarness } from "../__fixtures__/http-harness.ts";
import type { JobQueue, JobQueueCancelOptions, JobQueueSubmission } from "../job-queue.ts";
import type { JobRecord } from "../job-store.ts";

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };

/** A queue that keeps submissions and finishes a cancelled job at once, as a worker would. */
class RecordingQueue implements JobQueue {
  readonly submissions: JobQueueSubmission[] = [];
  readonly cancels: Array<{ jobId: string; options: JobQueueCancelOptions }> = [];
  readonly records = new Map<string, JobRecord>();
  async submit(submission: JobQueueSubmission): Promise<JobRecord> {
    this.submissions.push(submission);
    const record: JobRecord = {
      jobId: submission.jobId,
      dccName: submission.dccName,
      status: "pending",
      createdAt: Date.now(),
    };
    this.records.set(record.jobId, record);
    return record;
  }
  async get(jobId: string): Promise<JobRecord | undefined> {
    return this.records.get(jobId);
  }
  async cancel(jobId: string, options: JobQueueCancelOptions): Promise<JobRecord | undefined> {
    this.cancels.push({ jobId, options });
    const record = this.records.get(jobId);
    if (record !== undefined) record.status = "cancelled";
    return record;
  }
}

/** A queue whose every call fails as an unreachable one would. */
const downQueue: JobQueue = {
  submit: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")),
  get: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")),
  cancel: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")),
};

describe.each(revisions)("dcc_execute with a job queue (%s)", (revision) => {
  it("submits async scripts under a server-owned id and answers job actions from the queue", async () => {
    const queue = new RecordingQueue();
    const harness = await startHttpHarness({ jobQueue: queue }, { revision });
    try {
      const client = await harness.connect();
      const call = async (args: Record<string, unknown>, meta?: Record<string, unknown>) =>
        (
          (await client.callTool({
            name: "dcc_execute",
            arguments: args,
            ...(meta === undefined ? {} : { _meta: meta }),
          })) as ToolResult
        ).structuredContent ?? {};
      const started = await call(
        { code: "return 1;", async: true, timeout_secs: 5 },
        { dcc: { jobId: "spoofed" } },
      );
      expect(started).toMatchObject({ success: true, status: "pending" });
      const jobId = started["job_id"] as string;
      expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
      expect(queue.submissions).toEqual([
        expect.objectContaining({ jobId, dccName: "maya", code: "return 1;", timeoutSecs: 5 }),
      ]);
      // Without a labelled token, the client's own name travels as what it is: a claim.
      expect(queue.submissions[0]?.clientName).toBe("test-client");
      expect(queue.submissions[0]?.tokenLabel).toBeUndefined();
      // The script ran nowhere in this process.
      expect(harness.test.results).toHaveLength(0);
      expect(await call({ job_id: jobId, job_action: "status" })).toMatchObject({
        job: { job_id: jobId, status: "pending" },
      });
      expect(await call({ job_id: jobId, job_action: "cancel" })).toMatchObject({
        job: { status: "cancelled" },
      });
      expect(queue.cancels).toEqual([
        { jobId, options: expect.objectContaining({ waitMs: 2000 }) },
      ]);
      expect(await call({ job_id: "not-a-job", job_action: "status" })).toMatchObject({
        errorCode: "JOB_NOT_FOUND",
      });
    } finally {
      await harness.close();
    }
  });

  it("fails submit and status with JOB_QUEUE_UNAVAILABLE while other calls keep working", async () => {
    const harness = await startHttpHarness({ jobQueue: downQueue }, { revision });
    try {
      const client = await harness.connect();
      const call = async (args: Record<string, unknown>) =>
        ((await client.callTool({ name: "dcc_execute", arguments: args })) as ToolResult)
          .structuredContent ?? {};
      expect(await call({ code: "return 1;", async: true })).toMatchObject({
        success: false,
        errorCode: "JOB_QUEUE_UNAVAILABLE",
        error: expect.stringContaining("ECONNREFUSED"),
      });
      expect(await call({ job_id: "x", job_action: "status" })).toMatchObject({
        errorCode: "JOB_QUEUE_UNAVAILABLE",
      });
      expect(await call({ code: "return 2;" })).toMatchObject({ success: true, output: 2 });
    } finally {
      await harness.close();
    }
  });

  it("answers INVALID_INPUT when the queue refuses a script it cannot read, not JOB_QUEUE_UNAVAILABLE", async () => {
    const refusing: JobQueue = {
      ...downQueue,
      submit: (submission) =>
        Promise.reject(new ScriptNotFoundError({ filePath: String(submission.filePath) })),
    };
    const harness = await startHttpHarness({ jobQueue: refusing }, { revision });
    try {
      const client = await harness.connect();
      const result = (await client.callTool({
        name: "dcc_execute",
        arguments: { file_path: "maya/gone.ts", params: {}, async: true },
      })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        success: false,
        errorCode: "INVALID_INPUT",
        error: "Script file not found: maya/gone.ts",
        completion: "not_started",
      });
    } finally {
      await harness.close();
    }
  });
});
