// Cancelling an execution from each source, through DccApiExecutor.execute.
import { CancelToken, withCancelToken } from "@dcc/cancel";
import { afterAll, describe, expect, it } from "vitest";
import {
  events,
  executor,
  failed,
  pool,
  resetSlow,
  seenToken,
  slowAborted,
  slowStarted,
} from "../__fixtures__/executor-under-test.ts";

afterAll(() => pool.close());

describe("DccApiExecutor.execute: cancellation", () => {
  it("cancels a spinning script through an AbortSignal", async () => {
    const controller = new AbortController();
    const result = failed(
      await executor.execute('console.log("spinning"); while (true) {}', {
        signal: controller.signal,
        onLog: () => controller.abort("user pressed stop"),
      }),
    );
    expect(result).toMatchObject({
      message: "Script was cancelled on maya.",
      errorCode: "CANCELLED",
      error: "Script was cancelled: user pressed stop",
      completion: "complete",
    });
    // CANCELLED, not TIMEOUT, shows the interrupt flag rather than the 30 s deadline stopped it.
  });

  it("cancels a script blocked in dispatch, aborts the command and starts no other", async () => {
    resetSlow();
    events.length = 0;
    const token = new CancelToken();
    void slowStarted.promise.then(() => token.cancel("stop"));
    const result = failed(
      await executor.execute('try { dispatch("slow") } catch {}\ndispatch("record", "after")', {
        cancelToken: token,
      }),
    );
    expect(result).toMatchObject({ errorCode: "CANCELLED", error: "Script was cancelled: stop" });
    expect(["unknown", "complete"]).toContain(result.completion);
    expect(await slowAborted.promise).toBe(true);
    expect(events).toEqual([]);
  });

  it("reports completion unknown when the host command outlives the timeout", async () => {
    resetSlow();
    const result = failed(await executor.execute('dispatch("slow")', { timeoutSecs: 1 }));
    expect(result).toMatchObject({ errorCode: "TIMEOUT", completion: "unknown" });
    expect(await slowAborted.promise).toBe(true);
  });

  it("follows the ambient cancel token and runs commands inside the caller's context", async () => {
    resetSlow();
    const token = new CancelToken({ jobId: "job-1" });
    void slowStarted.promise.then(() => token.cancel());
    const result = await withCancelToken(token, () => executor.execute('dispatch("slow")'));
    expect(result).toMatchObject({ success: false, errorCode: "CANCELLED" });
    expect(seenToken).toBe(token);
  });

  it("does not start an execution that is already cancelled", async () => {
    events.length = 0;
    const result = failed(
      await executor.execute('dispatch("record", "x")', { signal: AbortSignal.abort() }),
    );
    expect(result).toMatchObject({ errorCode: "CANCELLED", completion: "not_started" });
    expect(events).toEqual([]);
  });

  it("lets a runaway execution leave the others alone", async () => {
    const controller = new AbortController();
    const runaway = executor.execute("while (true) {}", { signal: controller.signal });
    const quick = await executor.execute('return dispatch("add", { a: 20, b: 22 })');
    controller.abort();
    expect(quick).toMatchObject({ output: 42 });
    expect(await runaway).toMatchObject({ errorCode: "CANCELLED" });
  });
});
