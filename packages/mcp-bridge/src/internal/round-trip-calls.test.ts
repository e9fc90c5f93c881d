import type { ServerContext } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BridgeResult } from "../bridge-executor.ts";
import { RoundTripCalls } from "./round-trip-calls.ts";

/** The part of a request's context a call reads: its signal and its answers. */
function request(): ServerContext {
  return { mcpReq: { signal: new AbortController().signal } } as unknown as ServerContext;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("RoundTripCalls", () => {
  it("forgets a call whose result came while no request served it, after a retention time", async () => {
    vi.useFakeTimers();
    const calls = new RoundTripCalls();
    const call = calls.create({ tool: "dcc_execute", args: {}, startedAt: 0 });
    let finish: (result: BridgeResult) => void = () => {};
    const reported: BridgeResult[] = [];
    call.start(
      () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
      (result) => reported.push(result),
    );
    finish({ success: true, message: "done" });
    await vi.advanceTimersByTimeAsync(0);
    expect(reported).toEqual([{ success: true, message: "done" }]);
    expect(calls.size).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.size).toBe(0);
  });

  it("serves one request at a time: a second one meanwhile is told the call is busy", async () => {
    const calls = new RoundTripCalls();
    const call = calls.create({ tool: "dcc_execute", args: {}, startedAt: 0 });
    let finish: (result: BridgeResult) => void = () => {};
    call.start(
      () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
      () => {},
    );
    const first = call.serve(request(), [], undefined);
    expect(await call.serve(request(), [], undefined)).toEqual({ kind: "busy" });
    finish({ success: true, message: "done" });
    expect(await first).toEqual({ kind: "result", result: { success: true, message: "done" } });
    // Once served, a repeat gets the same result.
    expect(await call.serve(request(), [], undefined)).toEqual({
      kind: "result",
      result: { success: true, message: "done" },
    });
  });
});
