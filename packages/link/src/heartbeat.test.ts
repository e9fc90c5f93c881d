import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import type { LinkDisconnect } from "./link-client-options.ts";

afterEach(closeTestHosts);

const quick = { intervalMs: 100, timeoutMs: 600, pumpStallMs: 400 };

/** Resolves with the first disconnect the link reports (bounded by the test timeout). */
const nextDisconnect = (host: Awaited<ReturnType<typeof startTestHost>>): Promise<LinkDisconnect> =>
  new Promise((resolve) => host.link?.onDisconnect(resolve));

describe("the heartbeat", () => {
  it.each(["blocking", "pump"] as const)(
    "finds a frozen %s host unresponsive and ends it (the default)",
    async (loop) => {
      // Outside the sandbox: SIGSTOP must reach the host itself, not bwrap.
      const host = await startTestHost({
        loop,
        terminateGraceMs: 500,
        link: { heartbeat: quick },
        sandbox: "off",
      });
      const pid = host.pid as number;
      const sessionDir = host.sessionDir as string;
      const disconnected = nextDisconnect(host);
      process.kill(pid, "SIGSTOP"); // frozen: neither its loop nor its socket thread runs
      const disconnect = await disconnected;
      expect(disconnect.code).toBe("HOST_UNRESPONSIVE");
      expect(disconnect.message).toContain("did not answer a heartbeat");
      await waitUntil(() => host.state === "stopped", "the host is ended");
      expect(processAlive(pid)).toBe(false);
      expect(existsSync(sessionDir)).toBe(false);
      await expect(host.call("echo")).rejects.toMatchObject({
        code: "HOST_GONE",
        completion: "not_started",
      });
    },
  );

  it("finds a pump host whose main thread stopped pumping unresponsive", async () => {
    const host = await startTestHost({
      loop: "pump",
      terminateGraceMs: 500,
      link: { heartbeat: quick },
    });
    const disconnected = nextDisconnect(host);
    await host.call("stall"); // the socket thread still answers pings; the main thread is gone
    const disconnect = await disconnected;
    expect(disconnect.code).toBe("HOST_UNRESPONSIVE");
    expect(disconnect.message).toContain("main thread has not serviced the link");
  });

  it.each(["blocking", "pump"] as const)(
    "does not call a %s host busy in a long call unresponsive",
    async (loop) => {
      const host = await startTestHost({
        loop,
        // Limits no starved socket thread reaches, and a call well beyond them.
        link: { heartbeat: { intervalMs: 50, timeoutMs: 4000, pumpStallMs: 4000 } },
      });
      const disconnects: LinkDisconnect[] = [];
      host.link?.onDisconnect((disconnect) => disconnects.push(disconnect));
      // Well over twice the heartbeat timeout, without a single checkpoint.
      await expect(host.call("sleep", { seconds: 9 })).resolves.toBe("slept");
      await expect(host.call("echo", { fine: true })).resolves.toEqual({ fine: true });
      expect(disconnects).toEqual([]);
    },
  );

  it("with onUnresponsive: keep, only reports it", async () => {
    const host = await startTestHost({
      onUnresponsive: "keep",
      link: { heartbeat: quick },
      sandbox: "off", // SIGSTOP must reach the host itself
    });
    const pid = host.pid as number;
    const disconnected = nextDisconnect(host);
    process.kill(pid, "SIGSTOP");
    try {
      expect((await disconnected).code).toBe("HOST_UNRESPONSIVE");
      expect(processAlive(pid)).toBe(true);
      expect(host.state).toBe("running");
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });
});
