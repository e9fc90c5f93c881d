import { revisions } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "../__fixtures__/http-harness.ts";

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function call(
  client: Awaited<ReturnType<HttpHarness["connect"]>>,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = (await client.callTool({
    name: "dcc_execute",
    arguments: args,
    ...(meta ? { _meta: meta } : {}),
  })) as ToolResult;
  return { ...(result.structuredContent ?? {}), isError: result.isError ?? false };
}

describe.each(revisions)("async jobs on dcc_execute (%s)", (revision) => {
  it("starts a job from _meta.dcc.async, reports status, and returns the result", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const started = await call(
      client,
      { code: "await dispatch('tick', {}); return 41 + 1;" },
      { dcc: { async: true, jobId: "spoofed" } },
    );
    expect(started).toMatchObject({ success: true, status: "running", parent_job_id: null });
    const jobId = started["job_id"] as string;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(jobId).not.toBe("spoofed");
    expect(await waitUntil(() => harness?.test.results.length === 1)).toBe(true);
    const status = await call(client, { job_id: jobId, job_action: "status" });
    expect(status).toMatchObject({ success: true, job: { job_id: jobId, status: "completed" } });
    const result = await call(client, { job_id: jobId, job_action: "result" });
    expect(result).toMatchObject({ success: true, output: 42, job: { status: "completed" } });
  });

  it("keeps a job's latest progress, and leaves a finished job alone on cancel", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const started = await call(client, {
      code: "progress(1, 4, 'one'); progress(4, 4, 'all'); return 'done';",
      async: true,
    });
    const jobId = started["job_id"] as string;
    expect(await waitUntil(() => harness?.test.results.length === 1)).toBe(true);
    const status = await call(client, { job_id: jobId, job_action: "status" });
    expect(status).toMatchObject({
      job: { status: "completed", progress: { progress: 4, total: 4, message: "all" } },
    });
    const cancel = await call(client, { job_id: jobId, job_action: "cancel" });
    expect(cancel).toMatchObject({
      success: true,
      job: { status: "completed", cancel_requested: false },
    });
    expect(cancel["message"]).toContain("already finished");
    const failed = await call(client, { code: "throw new Error('nope');", async: true });
    expect(await waitUntil(() => harness?.test.results.length === 2)).toBe(true);
    const result = await call(client, { job_id: failed["job_id"], job_action: "result" });
    expect(result).toMatchObject({
      success: false,
      isError: true,
      errorCode: "SCRIPT_ERROR",
      job: { status: "failed" },
    });
  });

  it("cancel really stops the job's work, and the status becomes cancelled", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const { journal } = harness.test;
    const started = await call(client, {
      code: "await dispatch('block', {}); await dispatch('tick', {});",
      async: true,
    });
    const jobId = started["job_id"] as string;
    expect(await waitUntil(() => journal.calls.includes("block"))).toBe(true);
    const running = await call(client, { job_id: jobId, job_action: "result" });
    expect(running).toMatchObject({ success: true, job: { status: "running" } });
    const cancelled = await call(client, { job_id: jobId, job_action: "cancel" });
    expect(cancelled).toMatchObject({
      success: true,
      job: { status: "cancelled", cancel_requested: true },
    });
    // The script stopped; the host command notices the cancel at its next check.
    expect(await waitUntil(() => journal.blockSawCancel)).toBe(true);
    expect(journal.calls).not.toContain("tick");
    const result = await call(client, { job_id: jobId, job_action: "result" });
    expect(result).toMatchObject({ success: false, isError: true, errorCode: "CANCELLED" });
  });

  it("cascades cancellation from a parent job to its child", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    // Host commands run one at a time (one DCC main thread), so both jobs spin in the sandbox.
    const parent = await call(client, { code: "dispatch('tick', {}); for (;;) {}", async: true });
    const parentId = parent["job_id"] as string;
    const child = await call(
      client,
      { code: "dispatch('tick', {}); for (;;) {}", async: true },
      { dcc: { parentJobId: parentId } },
    );
    const childId = child["job_id"] as string;
    expect(child["parent_job_id"]).toBe(parentId);
    expect(await waitUntil(() => harness?.test.journal.ticks === 2)).toBe(true);
    await call(client, { job_id: parentId, job_action: "cancel" });
    expect(await waitUntil(() => harness?.test.results.length === 2)).toBe(true);
    const childStatus = await call(client, { job_id: childId, job_action: "status" });
    expect(childStatus).toMatchObject({ job: { status: "cancelled" } });
  });

  it("reports unknown job ids and jobs of another sessions alike", async () => {
    harness = await startHttpHarness({}, { revision });
    const first = await harness.connect();
    const second = await harness.connect();
    const started = await call(first, { code: "return 1;", async: true });
    const missing = await call(second, {
      job_id: "00000000-0000-0000-0000-000000000000",
      job_action: "status",
    });
    expect(missing).toMatchObject({ success: false, isError: true, errorCode: "JOB_NOT_FOUND" });
    // Jobs belong to the server, not the session: another session may poll with the id.
    expect(await waitUntil(() => harness?.test.results.length === 1)).toBe(true);
    const polled = await call(second, { job_id: started["job_id"], job_action: "result" });
    expect(polled).toMatchObject({ success: true, output: 1 });
  });

  it("refuses new jobs when maxRunningJobs are running", async () => {
    harness = await startHttpHarness({ maxRunningJobs: 1 }, { revision });
    const client = await harness.connect();
    const first = await call(client, {
      code: "await dispatch('block', {});",
      async: true,
    });
    const second = await call(client, { code: "return 1;", async: true });
    expect(second).toMatchObject({ success: false, errorCode: "BUSY" });
    await call(client, { job_id: first["job_id"], job_action: "cancel" });
  });
});
