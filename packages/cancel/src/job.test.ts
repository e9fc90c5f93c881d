import { describe, expect, expectTypeOf, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import type { CancellationProbe } from "./cancellation-probe.ts";
import type { CancellationToken } from "./cancellation-token.ts";
import { Job } from "./job.ts";
import type { JobHandle } from "./job-handle.ts";
import { JobStateError } from "./job-state-error.ts";
import { isTerminalJobStatus, type JobStatus, jobStatuses } from "./job-status.ts";

function jobIn(status: JobStatus): Job {
  const job = new Job({ jobId: `job-${status}` });
  if (status === "pending") return job;
  if (status === "interrupted") {
    job.interrupt();
    return job;
  }
  job.start();
  if (status === "completed") job.complete("ok");
  if (status === "failed") job.fail(new Error("bad"));
  if (status === "cancelled") {
    job.requestCancel();
    job.acknowledgeCancel();
  }
  return job;
}

function refusal(fn: () => void): JobStateError {
  try {
    fn();
  } catch (error) {
    if (error instanceof JobStateError) return error;
    throw error;
  }
  throw new Error("the transition was not refused");
}

describe("Job", () => {
  it("runs pending → running → completed and keeps the result", () => {
    const job = new Job({ jobId: "j1" });
    expect(job.status).toBe("pending");
    expect(job.token.jobId).toBe("j1");
    job.start();
    expect(job.status).toBe("running");
    job.complete({ frames: 3 });
    expect(job.status).toBe("completed");
    expect(job.terminal).toBe(true);
    expect(job.result).toEqual({ frames: 3 });
  });

  it("records the failure", () => {
    const error = new Error("crash");
    const job = jobIn("running");
    job.fail(error);
    expect(job.status).toBe("failed");
    expect(job.error).toBe(error);
  });

  it("keeps running after a cancel request until the work acknowledges it", () => {
    const job = jobIn("running");
    job.requestCancel("user");
    expect(job.status).toBe("running");
    expect(job.cancelled).toBe(true);
    expect(job.cancelRequested).toBe(true);
    expect(job.reason).toBe("user");
    expect(job.token.signal.aborted).toBe(true);
    job.requestCancel("again");
    expect(job.reason).toBe("user");
    job.acknowledgeCancel();
    expect(job.status).toBe("cancelled");
    expect(job.cancelRequested).toBe(false);
  });

  it("lets a queue skip a pending job whose cancel was requested", () => {
    const job = jobIn("pending");
    job.requestCancel();
    expect(job.status).toBe("pending");
    job.acknowledgeCancel();
    expect(job.status).toBe("cancelled");
  });

  it("lets a job that was asked to cancel still complete while running", () => {
    const job = jobIn("running");
    job.requestCancel();
    job.complete("finished anyway");
    expect(job.status).toBe("completed");
  });

  it("refuses acknowledgeCancel when no cancel was requested", () => {
    const error = refusal(() => jobIn("running").acknowledgeCancel());
    expect(error.code).toBe("INVALID_JOB_TRANSITION");
    expect(error.message).toContain("no cancellation was requested");
  });

  it.each(["pending", "completed", "failed", "cancelled", "interrupted"] as const)(
    "refuses complete() from %s",
    (status) => {
      const error = refusal(() => jobIn(status).complete());
      expect(error.status).toBe(status);
      expect(error.action).toBe("complete");
      expect(error.jobId).toBe(`job-${status}`);
      expect(error.message).toBe(`Cannot complete job job-${status} in status ${status}`);
    },
  );

  it.each(["completed", "failed", "cancelled", "interrupted"] as const)(
    "treats %s as terminal: no start, fail, cancel, acknowledge or interrupt",
    (status) => {
      const job = jobIn(status);
      expect(job.terminal).toBe(true);
      for (const action of [
        () => job.start(),
        () => job.fail(),
        () => job.requestCancel(),
        () => job.acknowledgeCancel(),
        () => job.interrupt(),
      ]) {
        expect(refusal(action).status).toBe(status);
      }
      expect(job.status).toBe(status);
    },
  );

  it("refuses to start twice and interrupts a running job", () => {
    const job = jobIn("running");
    expect(refusal(() => job.start()).action).toBe("start");
    job.interrupt();
    expect(job.status).toBe("interrupted");
  });

  it("cascades cancellation from a parent job to its child, never the reverse", () => {
    const parent = jobIn("running");
    const child = new Job({ jobId: "child", parent });
    const other = new Job({ jobId: "other", parent });
    child.start();
    other.start();
    child.requestCancel();
    expect(parent.cancelled).toBe(false);
    expect(other.cancelled).toBe(false);
    parent.requestCancel("whole batch");
    expect(other.cancelled).toBe(true);
    expect(other.reason).toBe("whole batch");
    expect(other.status).toBe("running");
  });

  it("accepts a token as parent and treats an empty id as none", () => {
    const parent = new CancelToken();
    const job = new Job({ jobId: "", parent });
    expect(job.jobId).toBeUndefined();
    parent.cancel();
    expect(job.cancelled).toBe(true);
  });

  it("is a JobHandle and its token serves both cancellation protocols", () => {
    expectTypeOf<Job>().toExtend<JobHandle>();
    expectTypeOf<CancelToken>().toExtend<CancellationProbe>();
    expectTypeOf<CancelToken>().toExtend<CancellationToken>();
    const job = new Job({ jobId: "j" });
    const handle: JobHandle = job;
    expect(handle.jobId).toBe("j");
  });

  it("lists the upstream statuses and which are terminal", () => {
    expect(jobStatuses).toEqual([
      "pending",
      "running",
      "completed",
      "failed",
      "cancelled",
      "interrupted",
    ]);
    expect(jobStatuses.filter(isTerminalJobStatus)).toEqual([
      "completed",
      "failed",
      "cancelled",
      "interrupted",
    ]);
  });
});
