import { EventEmitter } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import { checkCancelled, currentCancelToken, withCancelToken } from "./cancel-token-context.ts";
import { runIsolated } from "./internal/ambient-store.ts";

// How far an ambient token reaches. Unlike a Python thread, which starts with no ContextVars,
// everything started inside a scope inherits it; things started elsewhere do not.
describe("ambient propagation", () => {
  it("keeps concurrent requests independent", async () => {
    const a = new CancelToken({ jobId: "a" });
    const b = new CancelToken({ jobId: "b" });
    const seen: string[] = [];
    const request = (token: CancelToken) =>
      withCancelToken(token, async () => {
        for (let step = 0; step < 5; step++) {
          await delay(1);
          try {
            checkCancelled();
          } catch {
            seen.push(`${token.jobId} stopped`);
            return "cancelled";
          }
          expect(currentCancelToken()).toBe(token);
          if (step === 1 && token === a) a.cancel();
        }
        seen.push(`${token.jobId} done`);
        return "done";
      });
    await expect(Promise.all([request(a), request(b)])).resolves.toEqual(["cancelled", "done"]);
    expect(seen.sort()).toEqual(["a stopped", "b done"]);
  });

  it("reaches promises, microtasks and timers started inside, even after the scope returns", async () => {
    const token = new CancelToken();
    const fromTimer = await runIsolated(() => {
      let timerToken: Promise<unknown> = Promise.resolve();
      withCancelToken(token, () => {
        timerToken = new Promise((resolve) => setTimeout(() => resolve(currentCancelToken()), 5));
      });
      expect(currentCancelToken()).toBeUndefined();
      return timerToken;
    });
    expect(fromTimer).toBe(token);
    const fromMicrotask = await withCancelToken(
      token,
      () => new Promise((resolve) => queueMicrotask(() => resolve(currentCancelToken()))),
    );
    expect(fromMicrotask).toBe(token);
    const afterAwait = await withCancelToken(token, async () => {
      await delay(1);
      await Promise.resolve();
      return currentCancelToken();
    });
    expect(afterAwait).toBe(token);
  });

  it("does not reach a timer scheduled outside the scope", async () => {
    const token = new CancelToken();
    await runIsolated(async () => {
      const outside = new Promise((resolve) => setTimeout(() => resolve(currentCancelToken()), 5));
      await withCancelToken(token, () => outside);
      expect(await outside).toBeUndefined();
    });
  });

  it("reaches setImmediate and a nested withCancelToken(null) opts work out", async () => {
    const token = new CancelToken();
    const seen = await withCancelToken(token, () =>
      Promise.all([
        new Promise((resolve) => setImmediate(() => resolve(currentCancelToken()))),
        withCancelToken(
          null,
          () => new Promise((resolve) => setImmediate(() => resolve(currentCancelToken()))),
        ),
      ]),
    );
    expect(seen).toEqual([token, undefined]);
  });

  it("runs an EventEmitter listener in the emitter's caller context, not the subscriber's", () => {
    const emitter = new EventEmitter();
    const token = new CancelToken();
    const seen: unknown[] = [];
    runIsolated(() => {
      withCancelToken(token, () => emitter.on("job", () => seen.push(currentCancelToken())));
      emitter.emit("job");
      withCancelToken(token, () => emitter.emit("job"));
    });
    expect(seen).toEqual([undefined, token]);
  });
});
