import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { waitUntil } from "./__fixtures__/wait.ts";

afterEach(closeTestHosts);

describe.each(["blocking", "pump"] as const)("cooperative cancellation (%s host)", (loop) => {
  it("a cancelled call stops at the handler's next checkpoint, and the host serves on", async () => {
    let output = "";
    const host = await startTestHost({
      loop,
      onOutput: (text) => {
        output += text;
      },
    });
    const controller = new AbortController();
    // 5000 units of 10 ms: 50 s unless the cancel reaches the handler's checkpoints.
    const params = { units: 5000, unitSeconds: 0.01, announce: true };
    const call = host.call("work", params, { signal: controller.signal });
    await waitUntil(() => output.includes("WORKING"), "the host runs the call");
    controller.abort();
    await expect(call).rejects.toMatchObject({
      code: "CANCELLED",
      completion: "unknown",
      method: "work",
    });
    const abandoned = host.link?.abandonedCall;
    expect(abandoned?.method).toBe("work");
    // The host answered the cancelled call (its handler raised CallCancelled): it is settled.
    await expect(abandoned?.settled).resolves.toBe("complete");
    await expect(host.call("echo", { next: true })).resolves.toEqual({ next: true });
  });

  it("a deadline also asks the host to cancel", async () => {
    const host = await startTestHost({ loop });
    // The deadline must pass after the host picked the call up (else it answers not_started):
    // 10 s is far beyond any pick-up, even on a loaded machine; the work would take 50 s.
    const call = host.call("work", { units: 5000, unitSeconds: 0.01 }, { timeoutMs: 10_000 });
    await expect(call).rejects.toMatchObject({ code: "LINK_TIMEOUT", completion: "unknown" });
    await expect(host.link?.abandonedCall?.settled).resolves.toBe("complete");
  });

  it("a queued call whose signal aborts never reaches the host", async () => {
    const host = await startTestHost({ loop });
    const controller = new AbortController();
    const running = host.call("work", { units: 20, unitSeconds: 0.01 });
    const queued = host.call("crash", {}, { signal: controller.signal });
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: "CANCELLED", completion: "not_started" });
    await expect(running).resolves.toBe(20);
    expect(host.link?.abandonedCall).toBeUndefined();
  });
});

describe("cancellation of a call queued on the host", () => {
  it("takes it off the host's queue: the host answers it not started", async () => {
    // The pump-style host stops pumping after `stall`, so the next call waits in its queue.
    const host = await startTestHost({ loop: "pump" });
    await host.call("stall");
    const controller = new AbortController();
    const call = host.call("echo", { never: "run" }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ code: "CANCELLED", completion: "unknown" });
    await expect(host.link?.abandonedCall?.settled).resolves.toBe("not_started");
  });
});
