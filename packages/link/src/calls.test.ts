import { afterEach, describe, expect, it } from "vitest";
import { newGate, removeGates } from "./__fixtures__/gate.ts";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { LinkError } from "./link-error.ts";
import { RemoteCallError } from "./remote-call-error.ts";

afterEach(async () => {
  await closeTestHosts();
  removeGates();
});

describe.each(["blocking", "pump"] as const)("calls (%s host)", (loop) => {
  it("returns the handler's result", async () => {
    const host = await startTestHost({ loop });
    await expect(host.call("echo", { a: [1, "two", null], b: { c: true } })).resolves.toEqual({
      a: [1, "two", null],
      b: { c: true },
    });
    await expect(host.call("noop")).resolves.toBeNull();
  });

  it("maps host errors: typed codes with data, unexpected exceptions, unknown methods", async () => {
    const host = await startTestHost({ loop });
    const typed = await host
      .call("fail", {
        code: "NO_OBJECT",
        message: "no object named Cube",
        data: { names: ["Sphere"] },
      })
      .catch((error: unknown) => error);
    expect(typed).toBeInstanceOf(RemoteCallError);
    expect(typed).toBeInstanceOf(LinkError);
    expect(typed).toMatchObject({
      code: "REMOTE_ERROR",
      remoteCode: "NO_OBJECT",
      remoteMessage: "no object named Cube",
      remoteData: { names: ["Sphere"] },
      completion: "complete",
    });
    await expect(host.call("crash")).rejects.toMatchObject({
      remoteCode: "HANDLER_FAILED",
      remoteType: "ValueError",
      remoteMessage: "ValueError: boom",
      completion: "complete",
    });
    await expect(host.call("missing")).rejects.toMatchObject({
      remoteCode: "UNKNOWN_METHOD",
      completion: "not_started",
    });
    await expect(host.call("echo", { still: "serving" })).resolves.toEqual({ still: "serving" });
  });

  it("times out a call (unknown), refuses new ones with HOST_BUSY until the host answers it", async () => {
    const gate = newGate();
    const host = await startTestHost({ loop, sandboxPaths: { readOnly: [gate.folder] } });
    const link = host.link;
    // The deadline leaves the host ample time to start the call, even on a loaded machine; the
    // call then sleeps until the gate opens, so the host stays busy until the test says.
    const timedOut = await host
      .call("sleep", { seconds: 60, gate: gate.path }, { timeoutMs: 1000 })
      .catch((error: unknown) => error);
    expect(timedOut).toMatchObject({
      code: "LINK_TIMEOUT",
      completion: "unknown",
      method: "sleep",
    });
    const abandoned = link?.abandonedCall;
    expect(abandoned).toMatchObject({ method: "sleep", id: (timedOut as LinkError).callId });
    await expect(host.call("echo")).rejects.toMatchObject({
      code: "HOST_BUSY",
      completion: "not_started",
    });
    // `sleep` ignores cancellation, so it finishes; its late answer frees the host.
    gate.open();
    await expect(abandoned?.settled).resolves.toBe("complete");
    expect(link?.abandonedCall).toBeUndefined();
    await expect(host.call("echo", { after: true })).resolves.toEqual({ after: true });
  });

  it("runs calls one at a time, in order, with a bounded queue", async () => {
    const gate = newGate();
    const host = await startTestHost({
      loop,
      link: { heartbeat: false, maxQueue: 2 },
      sandboxPaths: { readOnly: [gate.folder] },
    });
    const first = host.call("sleep", { seconds: 60, gate: gate.path }, { timeoutMs: 60_000 });
    const second = host.call("echo", { n: 2 });
    const third = host.call("echo", { n: 3 });
    await expect(host.call("echo", { n: 4 })).rejects.toMatchObject({
      code: "HOST_BUSY",
      completion: "not_started",
    });
    gate.open();
    await expect(Promise.all([first, second, third])).resolves.toEqual([
      "slept",
      { n: 2 },
      { n: 3 },
    ]);
  });

  it("refuses queued calls with HOST_BUSY once the call ahead of them is abandoned", async () => {
    const gate = newGate();
    const host = await startTestHost({ loop, sandboxPaths: { readOnly: [gate.folder] } });
    // The running call sleeps until the gate opens: only its deadline can end its wait.
    const running = host.call("sleep", { seconds: 60, gate: gate.path }, { timeoutMs: 1000 });
    const queued = host.call("echo", { queued: true }, { timeoutMs: 60_000 });
    await expect(running).rejects.toMatchObject({ code: "LINK_TIMEOUT", completion: "unknown" });
    await expect(queued).rejects.toMatchObject({ code: "HOST_BUSY", completion: "not_started" });
    gate.open();
    await host.link?.abandonedCall?.settled;
  });

  it("times out a queued call as not_started", async () => {
    const gate = newGate();
    const host = await startTestHost({ loop, sandboxPaths: { readOnly: [gate.folder] } });
    // The call ahead sleeps until the gate opens, after the queued call's deadline passed.
    const running = host.call("sleep", { seconds: 60, gate: gate.path }, { timeoutMs: 60_000 });
    await expect(host.call("echo", {}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: "LINK_TIMEOUT",
      completion: "not_started",
    });
    gate.open();
    await expect(running).resolves.toBe("slept");
  });
});

describe("calls that never start", () => {
  it("refuses an aborted signal, params JSON cannot carry, and a closed link", async () => {
    const host = await startTestHost();
    await expect(host.call("echo", {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: "CANCELLED",
      completion: "not_started",
    });
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    await expect(host.call("echo", cyclic)).rejects.toMatchObject({
      code: "BAD_FRAME",
      completion: "not_started",
    });
    await expect(host.call("echo", { n: 1n } as never)).rejects.toMatchObject({
      code: "BAD_FRAME",
    });
    await expect(host.call("echo", [1] as never)).rejects.toMatchObject({ code: "BAD_FRAME" });
    const link = host.link;
    await link?.close();
    await expect(link?.call("echo")).rejects.toMatchObject({
      code: "LINK_CLOSED",
      completion: "not_started",
    });
  });
});
