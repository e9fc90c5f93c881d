import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import {
  checkCancelled,
  currentCancelToken,
  setCancelToken,
  withCancelToken,
} from "./cancel-token-context.ts";
import { captureCancelContext } from "./capture-cancel-context.ts";
import { currentJob, withCurrentJob } from "./current-job-context.ts";
import { currentJobId, withHostJobId } from "./current-job-id.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { runIsolated } from "./internal/ambient-store.ts";

describe("captureCancelContext", () => {
  it("re-enters the token, the job and the host job id later, from another callback", async () => {
    const token = new CancelToken({ jobId: "token-id" });
    const job = { cancelled: false, jobId: "job-id" };
    const run = withHostJobId("host-id", () =>
      withCurrentJob(job, () => withCancelToken(token, () => captureCancelContext())),
    );
    const seen = await runIsolated(
      () =>
        new Promise((resolve) =>
          setImmediate(() => {
            expect(currentCancelToken()).toBeUndefined();
            resolve(run(() => [currentCancelToken(), currentJob(), currentJobId()]));
          }),
        ),
    );
    expect(seen).toEqual([token, job, "host-id"]);
  });

  it("returns the callback's value and sees later cancellation", () => {
    const token = new CancelToken();
    const run = withCancelToken(token, () => captureCancelContext());
    expect(run(() => 42)).toBe(42);
    expectTypeOf(run(() => "text")).toEqualTypeOf<string>();
    expectTypeOf(run(async () => 1)).toEqualTypeOf<Promise<number>>();
    token.cancel("late");
    expect(() => run(() => checkCancelled())).toThrow(DccMcpCancelledError);
  });

  it("captures an empty context as empty, hiding whatever the caller has", () => {
    const run = runIsolated(() => captureCancelContext());
    withCancelToken(new CancelToken(), () => {
      expect(run(() => currentCancelToken())).toBeUndefined();
      expect(currentCancelToken()).toBeDefined();
    });
  });

  it("captures a token installed with setCancelToken", () => {
    const token = new CancelToken();
    const run = runIsolated(() => {
      setCancelToken(token);
      return captureCancelContext();
    });
    expect(run(() => currentCancelToken())).toBe(token);
  });

  it("does not let a set inside the runner leak out", () => {
    const token = new CancelToken();
    const run = runIsolated(() => captureCancelContext());
    runIsolated(() => {
      run(() => setCancelToken(token));
      expect(currentCancelToken()).toBeUndefined();
    });
  });
});

describe("worker threads", () => {
  // A pooled worker created before any request, echoing each message back.
  let worker: Worker;
  beforeAll(async () => {
    worker = runIsolated(
      () =>
        new Worker(
          `const { parentPort } = require("node:worker_threads");
           parentPort.on("message", (message) => parentPort.postMessage(message));`,
          { eval: true },
        ),
    );
    await once(worker, "online");
  });
  afterAll(async () => {
    await worker.terminate();
  });

  it("start with an empty ambient context, even when created inside a cancelled request", async () => {
    const token = new CancelToken({ jobId: "request-job" });
    token.cancel();
    const probe = withHostJobId("host-job", () =>
      withCurrentJob({ cancelled: true, jobId: "job" }, () =>
        withCancelToken(
          token,
          () =>
            new Worker(new URL("./__fixtures__/ts-worker.mjs", import.meta.url), {
              workerData: { module: "./probe-worker.ts" },
            }),
        ),
      ),
    );
    try {
      const [report] = await once(probe, "message");
      expect(report).toEqual({ token: null, job: null, jobId: null, checkThrew: false });
    } finally {
      await probe.terminate();
    }
  });

  it("delivers messages outside the request, so the request context must be re-entered", async () => {
    const token = new CancelToken({ jobId: "request-job" });
    const results: Array<{ direct: unknown; captured: unknown }> = [];
    await withCancelToken(token, async () => {
      const run = captureCancelContext();
      const reply = new Promise<void>((resolve) => {
        worker.once("message", () => {
          results.push({ direct: currentCancelToken(), captured: run(() => currentJobId()) });
          resolve();
        });
      });
      worker.postMessage("host command");
      await reply;
    });
    expect(results).toEqual([{ direct: undefined, captured: "request-job" }]);
  });
});
