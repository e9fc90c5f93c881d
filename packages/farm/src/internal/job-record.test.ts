import { describe, expect, it } from "vitest";
import { storedJob, toJobRecord } from "./job-record.ts";

const jobId = "0b7a4c1e-2f3d-4e5f-8a9b-0c1d2e3f4a5b";

describe("storedJob", () => {
  it("reads a finished job's record from its Redis hash as BullMQ stores it", () => {
    const job = storedJob(jobId, {
      name: "script",
      data: JSON.stringify({ dccName: "maya", code: "return 1;" }),
      timestamp: "1000",
      processedOn: "1005",
      finishedOn: "1030",
      progress: JSON.stringify({ progress: 50, message: "half" }),
      returnvalue: JSON.stringify({ success: true, message: "ok", output: 1 }),
    });
    expect(job).toBeDefined();
    const record = toJobRecord(job as NonNullable<typeof job>, "completed", true);
    expect(record).toEqual({
      jobId,
      dccName: "maya",
      status: "completed",
      createdAt: 1000,
      startedAt: 1005,
      finishedAt: 1030,
      progress: { progress: 50, message: "half" },
      cancelRequested: true,
      result: { success: true, message: "ok", output: 1 },
    });
  });

  it("reads a queued job with no progress yet as pending", () => {
    const job = storedJob(jobId, {
      data: JSON.stringify({ dccName: "blender", code: "return 1;" }),
      timestamp: "2000",
      progress: "0",
    });
    const record = toJobRecord(job as NonNullable<typeof job>, "waiting", false);
    expect(record).toEqual({ jobId, dccName: "blender", status: "pending", createdAt: 2000 });
  });

  it("keeps a failed job's reason", () => {
    const job = storedJob(jobId, {
      data: JSON.stringify({ dccName: "maya" }),
      timestamp: "1",
      finishedOn: "9",
      failedReason: "boom",
    });
    const record = toJobRecord(job as NonNullable<typeof job>, "failed", false);
    expect(record.status).toBe("failed");
    expect(record.result?.["error"]).toBe("boom");
  });

  it("is undefined for a job with no hash (never queued, or trimmed)", () => {
    expect(storedJob(jobId, {})).toBeUndefined();
  });
});
