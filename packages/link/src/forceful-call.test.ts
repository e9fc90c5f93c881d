import { getEventListeners } from "node:events";
import { existsSync } from "node:fs";
import { CancellationManager, ManualCancellationToken, StageCancelledError } from "@dcc/cancel";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import { forcefulCall } from "./forceful-call.ts";
import { LinkError } from "./link-error.ts";

afterEach(closeTestHosts);

describe.each(["blocking", "pump"] as const)("forcefulCall (%s host)", (loop) => {
  it("ends a host still running the call after deadline + grace, and cleans up", async () => {
    const host = await startTestHost({ loop, terminateGraceMs: 500 });
    const pid = host.pid as number;
    const sessionDir = host.sessionDir as string;
    const error = await forcefulCall(host, {
      method: "sleep",
      params: { seconds: 60 },
      // Generous, so the host has surely started the call by then on a loaded machine.
      timeoutMs: 1500,
      graceMs: 300,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LinkError);
    expect(error).toMatchObject({
      code: "LINK_TIMEOUT",
      completion: "unknown",
      hostTerminated: true,
      method: "sleep",
    });
    // forcefulCall settles only once the process is gone and its folder removed.
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(sessionDir)).toBe(false);
    expect(host.state).toBe("stopped");
    await host.restart();
    await expect(host.call("echo", { again: 1 })).resolves.toEqual({ again: 1 });
  });

  it("leaves a host that stops within the grace period running", async () => {
    const host = await startTestHost({ loop });
    const pid = host.pid as number;
    const error = await forcefulCall(host, {
      method: "work",
      params: { units: 5000, unitSeconds: 0.01 },
      // Past the host's pick-up of the call on any machine (else it ends not_started).
      timeoutMs: 10_000,
      graceMs: 10_000,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "LINK_TIMEOUT",
      completion: "complete",
      hostTerminated: false,
    });
    expect(processAlive(pid)).toBe(true);
    await expect(host.call("echo", { alive: true })).resolves.toEqual({ alive: true });
  });

  it("returns the result of a call that finishes in time, and unregisters it", async () => {
    const host = await startTestHost({ loop });
    const manager = new CancellationManager({ token: new ManualCancellationToken() });
    await expect(
      forcefulCall(host, { method: "echo", params: { x: 1 }, manager, callId: "echo-1" }),
    ).resolves.toEqual({ x: 1 });
    expect(manager.activeCallIds).toEqual([]);
  });

  it("stops the call when the caller's signal aborts, and leaves no listener on that signal", async () => {
    let output = "";
    const host = await startTestHost({
      loop,
      onOutput: (text) => {
        output += text;
      },
    });
    const caller = new AbortController();
    const done = await forcefulCall(host, {
      method: "echo",
      params: { y: 2 },
      signal: caller.signal,
    });
    expect(done).toEqual({ y: 2 });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);

    const running = forcefulCall(host, {
      method: "work",
      params: { units: 5000, unitSeconds: 0.01, announce: true },
      signal: caller.signal,
      graceMs: 10_000,
    }).catch((caught: unknown) => caught);
    // Abort once the host runs the call, so the cancel reaches the handler's checkpoints.
    await waitUntil(() => output.includes("WORKING"), "the host runs the call");
    caller.abort();
    expect(await running).toMatchObject({ code: "CANCELLED", hostTerminated: false });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    await expect(host.call("echo", { after: true })).resolves.toEqual({ after: true });
  });

  it("does not start a call whose caller's signal is already aborted", async () => {
    const host = await startTestHost({ loop });
    const error = await forcefulCall(host, {
      method: "echo",
      params: {},
      signal: AbortSignal.abort(),
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "CANCELLED", completion: "not_started" });
  });
});

describe("forcefulCall with a CancellationManager", () => {
  it("a checkpoint that sees the run cancelled ends a host that cannot honour the cancel", async () => {
    let output = "";
    const host = await startTestHost({
      terminateGraceMs: 500,
      onOutput: (text) => {
        output += text;
      },
    });
    const pid = host.pid as number;
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    const call = forcefulCall(host, {
      method: "sleep",
      params: { seconds: 60, announce: true },
      manager,
      callId: "render",
      graceMs: 300,
    });
    expect(manager.activeCallIds).toEqual(["render"]);
    await waitUntil(() => output.includes("SLEEPING"), "the host runs the call");
    token.cancel();
    expect(() => manager.checkpoint({ stage: "render" })).toThrow(StageCancelledError);
    await manager.settled();
    expect(processAlive(pid)).toBe(false);
    await expect(call).rejects.toMatchObject({
      code: "CANCELLED",
      completion: "unknown",
      hostTerminated: true,
    });
  });

  it("a host that honours the cancel is left running", async () => {
    let output = "";
    const host = await startTestHost({
      loop: "pump",
      onOutput: (text) => {
        output += text;
      },
    });
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    const call = forcefulCall(host, {
      method: "work",
      params: { units: 5000, announce: true },
      manager,
      callId: "frames",
      graceMs: 10_000,
    });
    await waitUntil(() => output.includes("WORKING"), "the host runs the call");
    token.cancel();
    expect(() => manager.checkpoint({ stage: "frames" })).toThrow(StageCancelledError);
    await manager.settled();
    await expect(call).rejects.toMatchObject({
      code: "CANCELLED",
      completion: "complete",
      hostTerminated: false,
    });
    expect(host.state).toBe("running");
  });
});
