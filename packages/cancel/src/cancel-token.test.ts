import { describe, expect, it, vi } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import { withCancelToken } from "./cancel-token-context.ts";
import type { CancellationProbe } from "./cancellation-probe.ts";
import { currentJobId } from "./current-job-id.ts";
import { DccMcpCancelledError } from "./dcc-mcp-cancelled-error.ts";

describe("CancelToken", () => {
  it("starts uncancelled and keeps its server-owned job id", () => {
    const token = new CancelToken({ jobId: "job-42" });
    expect(token.cancelled).toBe(false);
    expect(token.isCancelled()).toBe(false);
    expect(token.jobId).toBe("job-42");
    expect(token.reason).toBeUndefined();
    expect(token.signal.aborted).toBe(false);
    token.cancel();
    expect(token.cancelled).toBe(true);
    expect(token.isCancelled()).toBe(true);
  });

  it("treats an empty job id as none", () => {
    expect(new CancelToken({ jobId: "" }).jobId).toBeUndefined();
    expect(new CancelToken().jobId).toBeUndefined();
  });

  it("is idempotent: the first reason wins and listeners run once", () => {
    const token = new CancelToken();
    const listener = vi.fn();
    token.onCancel(listener);
    token.cancel("first");
    token.cancel("second");
    token.cancel();
    expect(token.reason).toBe("first");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith("first");
  });

  it("aborts its signal with a DccMcpCancelledError reason", () => {
    const token = new CancelToken({ jobId: "j" });
    const signal = token.signal;
    const onAbort = vi.fn();
    signal.addEventListener("abort", onAbort);
    token.cancel("stop");
    expect(signal.aborted).toBe(true);
    expect(onAbort).toHaveBeenCalledTimes(1);
    expect(signal.reason).toBeInstanceOf(DccMcpCancelledError);
    expect((signal.reason as DccMcpCancelledError).reason).toBe("stop");
    expect((signal.reason as DccMcpCancelledError).jobId).toBe("j");
    expect(() => signal.throwIfAborted()).toThrow("Request cancelled by client");
    expect(token.signal).toBe(signal);
  });

  it("hands out an already aborted signal after cancel", () => {
    const token = new CancelToken();
    token.cancel("late");
    expect(token.signal.aborted).toBe(true);
    expect((token.signal.reason as DccMcpCancelledError).reason).toBe("late");
  });

  it("unsubscribes through the disposer and calls late subscribers at once", () => {
    const token = new CancelToken();
    const kept = vi.fn();
    const dropped = vi.fn();
    token.onCancel(kept);
    const dispose = token.onCancel(dropped);
    dispose();
    dispose();
    token.cancel("r");
    expect(kept).toHaveBeenCalledOnce();
    expect(dropped).not.toHaveBeenCalled();
    const late = vi.fn();
    const disposeLate = token.onCancel(late);
    expect(late).toHaveBeenCalledWith("r");
    expect(() => disposeLate()).not.toThrow();
  });

  it("lets the same function subscribe twice with independent disposers", () => {
    const token = new CancelToken();
    const listener = vi.fn();
    const first = token.onCancel(listener);
    token.onCancel(listener);
    first();
    token.cancel();
    expect(listener).toHaveBeenCalledOnce();
  });

  it("runs every listener even if one throws, then rethrows", () => {
    const token = new CancelToken();
    const after = vi.fn();
    token.onCancel(() => {
      throw new Error("listener broke");
    });
    token.onCancel(after);
    expect(() => token.cancel()).toThrow("listener broke");
    expect(after).toHaveBeenCalledOnce();
    expect(token.cancelled).toBe(true);
    const two = new CancelToken();
    two.onCancel(() => {
      throw new Error("a");
    });
    two.onCancel(() => {
      throw new Error("b");
    });
    expect(() => two.cancel()).toThrow(AggregateError);
  });

  it("cascades from parent to child, never from child to parent", () => {
    const parent = new CancelToken({ jobId: "parent" });
    const child = parent.child({ jobId: "child" });
    const grandchild = child.child();
    const sibling = parent.child();
    expect(child.jobId).toBe("child");
    child.cancel("child only");
    expect(child.cancelled).toBe(true);
    expect(grandchild.cancelled).toBe(true);
    expect(parent.cancelled).toBe(false);
    expect(sibling.cancelled).toBe(false);
    parent.cancel("parent");
    expect(sibling.cancelled).toBe(true);
    expect(sibling.reason).toBe("parent");
    expect(sibling.signal.aborted).toBe(true);
    expect(child.reason).toBe("child only");
  });

  it("creates children of a cancelled parent already cancelled", () => {
    const parent = new CancelToken();
    parent.cancel("gone");
    const child = new CancelToken({ parent });
    expect(child.cancelled).toBe(true);
    expect(child.reason).toBe("gone");
  });

  it("follows a parent that only offers an AbortSignal", () => {
    const controller = new AbortController();
    const parent = { cancelled: false, signal: controller.signal };
    const child = new CancelToken({ parent });
    const listener = vi.fn();
    child.onCancel(listener);
    controller.abort();
    expect(child.cancelled).toBe(true);
    expect(listener).toHaveBeenCalledOnce();
  });

  it("polls a bare probe parent whenever cancelled is read", () => {
    const parent: { cancelled: boolean; reason?: string } = { cancelled: false };
    const child = new CancelToken({ parent: parent as CancellationProbe });
    const listener = vi.fn();
    child.onCancel(listener);
    expect(child.cancelled).toBe(false);
    parent.cancelled = true;
    parent.reason = "probe";
    expect(child.cancelled).toBe(true);
    expect(child.reason).toBe("probe");
    expect(listener).toHaveBeenCalledWith("probe");
  });

  it("throws a request cancellation from throwIfCancelled", () => {
    const token = new CancelToken({ jobId: "j" });
    expect(() => token.throwIfCancelled()).not.toThrow();
    token.cancel("why");
    expect(() => token.throwIfCancelled()).toThrow(DccMcpCancelledError);
  });
});

describe("CancelToken.fromSignal", () => {
  it("cancels when the signal aborts, with the reason as text", () => {
    const controller = new AbortController();
    const token = CancelToken.fromSignal(controller.signal, { jobId: "s" });
    expect(token.cancelled).toBe(false);
    expect(token.jobId).toBe("s");
    controller.abort("client went away");
    expect(token.cancelled).toBe(true);
    expect(token.reason).toBe("client went away");
  });

  it("is cancelled at once for an aborted signal", () => {
    const token = CancelToken.fromSignal(AbortSignal.abort(new Error("boom")));
    expect(token.cancelled).toBe(true);
    expect(token.reason).toBe("boom");
  });

  it("keeps the reason of a cancellation error and ignores non-text reasons", () => {
    const source = new CancelToken();
    source.cancel("inner");
    expect(CancelToken.fromSignal(source.signal).reason).toBe("inner");
    expect(CancelToken.fromSignal(AbortSignal.abort(42)).reason).toBeUndefined();
  });

  it("does not abort the source signal when the token is cancelled", () => {
    const controller = new AbortController();
    const token = CancelToken.fromSignal(controller.signal);
    token.cancel();
    expect(controller.signal.aborted).toBe(false);
  });
});

describe("CancelToken constructor arguments", () => {
  it('takes the seed\'s positional job id, as CancelToken("job-42") does', async () => {
    const token = new CancelToken("job-42");
    expect(token.jobId).toBe("job-42");
    expect(token.cancelled).toBe(false);
    const seen = await withCancelToken(token, async () => {
      await Promise.resolve();
      return currentJobId();
    });
    expect(seen).toBe("job-42");
    token.cancel();
    expect(token.cancelled).toBe(true);
    expect(new CancelToken("").jobId).toBeUndefined();
    expect(new CancelToken(undefined).jobId).toBeUndefined();
  });

  it.each<[string, unknown, RegExp]>([
    ["a number", 42, /got number 42/],
    ["null", null, /got null/],
    ["an array", ["job-42"], /got an array/],
    ["a boolean", true, /got boolean true/],
    ["a function", () => "job-42", /got a function/],
    ["a wrong jobId type", { jobId: 42 }, /options\.jobId must be a string.*got number 42/],
    ["a null jobId", { jobId: null }, /options\.jobId must be a string.*got null/],
    ["the Python spelling job_id", { job_id: "job-42" }, /unknown option "job_id"/],
    ["a parent that is not a probe", { parent: "job-1" }, /options\.parent must be/],
    ["a parent without a boolean cancelled", { parent: {} }, /options\.parent must be/],
    [
      "a parent whose signal is not an AbortSignal",
      { parent: { cancelled: false, signal: "x" } },
      /options\.parent\.signal must be an AbortSignal/,
    ],
  ])("refuses %s with a TypeError that names it", (_label, argument, message) => {
    const construct = () => new CancelToken(argument as never);
    expect(construct).toThrow(TypeError);
    expect(construct).toThrow(message);
  });

  it("checks the options of child and fromSignal the same way", () => {
    const parent = new CancelToken("parent");
    expect(parent.child({ jobId: "c" }).jobId).toBe("c");
    expect(() => parent.child({ jobId: 7 } as never)).toThrow(/options\.jobId must be a string/);
    expect(() => parent.child("c" as never)).toThrow(TypeError);
    expect(() =>
      CancelToken.fromSignal(new AbortController().signal, { id: "x" } as never),
    ).toThrow(/unknown option "id"/);
    expect(() => CancelToken.fromSignal("signal" as never)).toThrow(/AbortSignal/);
  });
});
