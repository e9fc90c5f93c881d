import { describe, expect, it } from "vitest";
import { InMemoryJobStore } from "./in-memory-job-store.ts";
import type { JobRecord } from "./job-store.ts";

const record = (jobId: string, status: JobRecord["status"], finishedAt?: number): JobRecord => ({
  jobId,
  dccName: "maya",
  status,
  createdAt: 0,
  ...(finishedAt === undefined ? {} : { finishedAt }),
});

describe("InMemoryJobStore", () => {
  it("stores copies, merges updates and lists newest first", () => {
    const store = new InMemoryJobStore();
    store.create(record("a", "running"));
    store.create(record("b", "running"));
    const copy = store.get("a");
    if (copy) copy.status = "failed";
    expect(store.get("a")?.status).toBe("running");
    const finishedAt = Date.now();
    store.update("a", { status: "completed", finishedAt });
    expect(store.get("a")).toMatchObject({ status: "completed", finishedAt });
    store.update("missing", { status: "failed" });
    expect(store.list().map((job) => job.jobId)).toEqual(["b", "a"]);
  });

  it("expires finished records after the retention time, never running ones", () => {
    let now = 1000;
    const store = new InMemoryJobStore({ retentionMs: 100, now: () => now });
    store.create(record("done", "completed", 1000));
    store.create(record("busy", "running"));
    now = 1101;
    expect(store.get("done")).toBeUndefined();
    expect(store.get("busy")).toBeDefined();
  });

  it("caps the record count, dropping the oldest finished records first", () => {
    const store = new InMemoryJobStore({ maxRecords: 2 });
    store.create(record("old-running", "running"));
    store.create(record("old-done", "completed", Date.now()));
    store.create(record("new", "running"));
    expect(store.size).toBe(2);
    expect(store.get("old-done")).toBeUndefined();
    expect(store.get("old-running")).toBeDefined();
  });
});
