import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { processAlive, waitUntil } from "./__fixtures__/wait.ts";
import type { LinkDisconnect } from "./link-client-options.ts";
import type { LinkError } from "./link-error.ts";

afterEach(closeTestHosts);

describe.each(["unix", "tcp"] as const)("a host that dies mid-call (%s)", (transport) => {
  it("fails the call with HOST_GONE, completion unknown, and cleans up after it", async () => {
    const host = await startTestHost({ transport });
    const pid = host.pid as number;
    const sessionDir = host.sessionDir as string;
    const link = host.link;
    const disconnects: LinkDisconnect[] = [];
    link?.onDisconnect((disconnect) => disconnects.push(disconnect));
    const call = host.call("sleep", { seconds: 30 });
    const queued = host.call("echo", { queued: true });
    await waitUntil(() => processAlive(pid), "the host runs");
    process.kill(pid, "SIGKILL");
    await expect(call).rejects.toMatchObject({
      code: "HOST_GONE",
      completion: "unknown",
      method: "sleep",
    });
    // Queued behind it: never started. The link learns the host is gone either from the exit
    // (HOST_GONE) or from its reconnect attempts (CONNECT_FAILED), whichever comes first.
    const queuedError = await queued.catch((error: unknown) => error);
    expect(queuedError).toMatchObject({ completion: "not_started", method: "echo" });
    expect(["HOST_GONE", "CONNECT_FAILED"]).toContain((queuedError as LinkError).code);
    expect(disconnects[0]?.code).toBe("HOST_GONE");
    await waitUntil(
      () => host.state === "stopped" && !existsSync(sessionDir),
      "the folder is removed",
    );
    expect(processAlive(pid)).toBe(false);
    expect(link?.state).toBe("closed");
    await expect(host.call("echo")).rejects.toMatchObject({
      code: "HOST_GONE",
      completion: "not_started",
    });
  });

  it("can be restarted on demand: a new process, a new session, a new link", async () => {
    const host = await startTestHost({ transport });
    const first = { pid: host.pid as number, dir: host.sessionDir as string, link: host.link };
    process.kill(first.pid, "SIGKILL");
    await waitUntil(() => host.state === "stopped", "the host is seen gone");
    await host.restart();
    expect(host.state).toBe("running");
    expect(host.pid).not.toBe(first.pid);
    expect(host.sessionDir).not.toBe(first.dir);
    expect(host.link).not.toBe(first.link);
    expect(existsSync(first.dir)).toBe(false);
    await expect(host.call("echo", { back: true })).resolves.toEqual({ back: true });
  });
});
