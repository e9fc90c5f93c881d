import { CancelToken, checkCancelled, currentJobId } from "@dcc/cancel";
import { describe, expect, it } from "vitest";
import type { BridgeResult } from "./bridge-executor.ts";
import { runInCallContext } from "./internal/call-context.ts";
import { JobManager, type JobWorkContext } from "./job-manager.ts";

/** Work that waits until its token is cancelled (bounded), then reports how it ended. */
function untilCancelled(
  seen: JobWorkContext[],
): (context: JobWorkContext) => Promise<BridgeResult> {
  return async (context) => {
    seen.push(context);
    const deadline = Date.now() + 5000;
    while (!context.token.cancelled && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    return context.token.cancelled
      ? { success: false, message: "stopped", errorCode: "CANCELLED" }
      : { success: true, message: "ran out" };
  };
}

describe("JobManager", () => {
  it("runs a call under a fresh server-owned id and cancels it with the request signal", async () => {
    const jobs = new JobManager();
    const abort = new AbortController();
    const seen: JobWorkContext[] = [];
    const running = jobs.runCall({ dccName: "maya", signal: abort.signal }, untilCancelled(seen));
    expect(jobs.liveCount).toBe(1);
    abort.abort();
    expect(await running).toMatchObject({ errorCode: "CANCELLED" });
    expect(seen[0]?.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]?.token.jobId).toBe(seen[0]?.jobId);
    expect(jobs.liveCount).toBe(0);
  });

  it("installs the token and job id for host code", async () => {
    const token = new CancelToken({ jobId: "job-1" });
    const seen = runInCallContext(token, "job-1", () => {
      token.cancel("stop");
      let message = "";
      try {
        checkCancelled();
      } catch (error) {
        message = (error as Error).message;
      }
      return { id: currentJobId(), message };
    });
    expect(seen).toEqual({ id: "job-1", message: expect.stringContaining("cancelled") });
  });

  it("moves an async job through running to cancelled only once its work has returned", async () => {
    const jobs = new JobManager();
    const seen: JobWorkContext[] = [];
    const record = jobs.startJob({ dccName: "maya" }, untilCancelled(seen));
    expect(record?.status).toBe("running");
    const jobId = record?.jobId as string;
    const after = await jobs.cancel(jobId);
    expect(after).toMatchObject({
      status: "cancelled",
      cancelRequested: true,
      result: { errorCode: "CANCELLED" },
    });
    expect(await jobs.cancel(jobId)).toMatchObject({ status: "cancelled" });
  });

  it("records failures and work that throws", async () => {
    const jobs = new JobManager();
    const failed = jobs.startJob({ dccName: "maya" }, async () => ({
      success: false,
      message: "no",
    }));
    const threw = jobs.startJob({ dccName: "maya" }, async () => {
      throw new Error("kaput");
    });
    const deadline = Date.now() + 5000;
    while (jobs.liveCount > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1));
    expect(jobs.get(failed?.jobId as string)?.status).toBe("failed");
    expect(jobs.get(threw?.jobId as string)).toMatchObject({
      status: "failed",
      result: { error: "kaput", errorCode: "INTERNAL" },
    });
  });

  it("cascades from a parent call to children, never the other way", async () => {
    const jobs = new JobManager();
    const seen: JobWorkContext[] = [];
    const parent = jobs.runCall({ dccName: "maya" }, untilCancelled(seen));
    const parentId = seen[0]?.jobId as string;
    const child = jobs.startJob({ dccName: "maya", parentJobId: parentId }, untilCancelled(seen));
    const other = jobs.startJob(
      { dccName: "maya", parentJobId: "unknown-parent" },
      untilCancelled(seen),
    );
    expect(other?.parentJobId).toBe("unknown-parent");
    await jobs.cancel(child?.jobId as string);
    expect(seen[0]?.token.cancelled).toBe(false);
    const second = jobs.startJob({ dccName: "maya", parentJobId: parentId }, untilCancelled(seen));
    seen[0]?.token.cancel("parent stop");
    expect(await parent).toMatchObject({ errorCode: "CANCELLED" });
    expect(await jobs.cancel(second?.jobId as string, "noop", 2000)).toMatchObject({
      status: "cancelled",
    });
    expect(jobs.get(other?.jobId as string)?.status).toBe("running");
    await jobs.close();
    expect(jobs.get(other?.jobId as string)?.status).toBe("cancelled");
  });

  it("refuses work beyond its bounds and after close", async () => {
    const jobs = new JobManager({ maxRunningJobs: 1, maxRunningCalls: 1 });
    const seen: JobWorkContext[] = [];
    const first = jobs.startJob({ dccName: "maya" }, untilCancelled(seen));
    expect(jobs.startJob({ dccName: "maya" }, untilCancelled(seen))).toBeUndefined();
    const call = jobs.runCall({ dccName: "maya" }, untilCancelled(seen));
    expect(await jobs.runCall({ dccName: "maya" }, untilCancelled(seen))).toBeUndefined();
    await jobs.close();
    expect(await call).toMatchObject({ errorCode: "CANCELLED" });
    expect(jobs.get(first?.jobId as string)?.status).toBe("cancelled");
    expect(jobs.startJob({ dccName: "maya" }, untilCancelled(seen))).toBeUndefined();
    expect(await jobs.runCall({ dccName: "maya" }, untilCancelled(seen))).toMatchObject({
      errorCode: "CANCELLED",
    });
  });
});
