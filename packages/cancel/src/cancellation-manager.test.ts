import { describe, expect, it, vi } from "vitest";
import { ActiveCallError } from "./active-call-error.ts";
import { CancelToken } from "./cancel-token.ts";
import { CancellationManager } from "./cancellation-manager.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";
import { ManualCancellationToken } from "./manual-cancellation-token.ts";
import { StageCancelledError } from "./stage-cancelled-error.ts";

function caught(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("ManualCancellationToken", () => {
  it("flips once and stays cancelled", () => {
    const token = new ManualCancellationToken();
    expect(token.isCancelled()).toBe(false);
    token.cancel();
    token.cancel();
    expect(token.isCancelled()).toBe(true);
  });
});

describe("CancellationManager", () => {
  it("is never cancelled without a token, and checkpoints pass", () => {
    const manager = new CancellationManager();
    expect(manager.isCancelled()).toBe(false);
    expect(() => manager.checkpoint({ stage: "plan" })).not.toThrow();
  });

  it("accepts a CancelToken as its token", () => {
    const token = new CancelToken();
    const manager = new CancellationManager({ token });
    token.cancel();
    expect(manager.isCancelled()).toBe(true);
  });

  it("throws StageCancelledError carrying stage and progress once cancelled", () => {
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    manager.checkpoint({ stage: "audit", progress: { completed: 1, total: 3 } });
    token.cancel();
    const error = caught(() =>
      manager.checkpoint({ stage: "audit", progress: { completed: 2, total: 3, item: "auth" } }),
    );
    expect(error).toBeInstanceOf(StageCancelledError);
    expect(error).toBeInstanceOf(DccMcpCancelledError);
    const stageError = error as StageCancelledError;
    expect(stageError.stage).toBe("audit");
    expect(stageError.progress).toEqual({ completed: 2, total: 3, item: "auth" });
    expect(stageError.code).toBe("CANCELLED");
    expect(stageError.source).toBe("stage");
    expect(stageError.message).toBe("Stage audit cancelled");
  });

  it("cancels the active calls first, then throws", async () => {
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    const order: string[] = [];
    manager.registerActiveCall("agent-1", () => {
      order.push("cancel agent-1");
    });
    manager.registerActiveCall("agent-2", async () => {
      order.push("cancel agent-2");
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("agent-2 stopped");
    });
    token.cancel();
    try {
      manager.checkpoint({ stage: "verify" });
    } catch {
      order.push("thrown");
    }
    expect(order).toEqual(["cancel agent-1", "cancel agent-2", "thrown"]);
    expect(manager.activeCallIds).toEqual([]);
    await manager.settled();
    expect(order).toEqual(["cancel agent-1", "cancel agent-2", "thrown", "agent-2 stopped"]);
  });

  it("does not touch active calls while the run goes on", () => {
    const manager = new CancellationManager({ token: new ManualCancellationToken() });
    const cancel = vi.fn();
    manager.registerActiveCall("a", cancel);
    manager.checkpoint({ stage: "plan" });
    expect(cancel).not.toHaveBeenCalled();
    expect(manager.activeCallIds).toEqual(["a"]);
  });

  it("forgets unregistered calls and refuses duplicate ids", () => {
    const manager = new CancellationManager();
    const cancel = vi.fn();
    manager.registerActiveCall("a", cancel);
    const duplicate = caught(() => manager.registerActiveCall("a", cancel));
    expect(duplicate).toBeInstanceOf(ActiveCallError);
    expect((duplicate as ActiveCallError).code).toBe("DUPLICATE_ACTIVE_CALL");
    expect(manager.unregisterActiveCall("a")).toBe(true);
    expect(manager.unregisterActiveCall("a")).toBe(false);
    return manager.cancelActiveCalls().then(() => expect(cancel).not.toHaveBeenCalled());
  });

  it("stops every call even when some cancel functions fail, then reports them", async () => {
    const manager = new CancellationManager();
    const survivor = vi.fn();
    manager.registerActiveCall("sync-throw", () => {
      throw new Error("no such process");
    });
    manager.registerActiveCall("async-reject", () => Promise.reject(new Error("timeout")));
    manager.registerActiveCall("fine", survivor);
    const error = await manager.cancelActiveCalls().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(survivor).toHaveBeenCalledOnce();
    expect(error).toBeInstanceOf(AggregateError);
    const failures = (error as AggregateError).errors as ActiveCallError[];
    expect(failures.map((failure) => [failure.callId, failure.code])).toEqual([
      ["sync-throw", "ACTIVE_CALL_CANCEL_FAILED"],
      ["async-reject", "ACTIVE_CALL_CANCEL_FAILED"],
    ]);
    expect(((failures[0] as ActiveCallError).cause as Error).message).toBe("no such process");
  });

  it("reports stop failures begun by a checkpoint through settled()", async () => {
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    manager.registerActiveCall("bad", () => Promise.reject(new Error("stuck")));
    token.cancel();
    expect(caught(() => manager.checkpoint({ stage: "patch" }))).toBeInstanceOf(
      StageCancelledError,
    );
    await expect(manager.settled()).rejects.toBeInstanceOf(AggregateError);
    await expect(manager.settled()).resolves.toBeUndefined();
  });
});
