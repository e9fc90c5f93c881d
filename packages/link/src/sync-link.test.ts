import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import type { LinkClient } from "./link-client.ts";
import { openSyncLink, type SyncCallWait, type SyncLink } from "./sync-link.ts";

const opened: SyncLink[] = [];
const gates: string[] = [];
afterEach(async () => {
  for (const link of opened.splice(0)) link.close();
  for (const folder of gates.splice(0)) rmSync(folder, { recursive: true, force: true });
  await closeTestHosts();
});

async function syncLinkTo(client: LinkClient | undefined): Promise<SyncLink> {
  if (client === undefined) throw new Error("the test host has no link");
  const link = await openSyncLink(client.access());
  opened.push(link);
  return link;
}

const patient = (): SyncCallWait => ({ deadline: Date.now() + 20_000, shouldStop: () => false });

describe.each(["blocking", "pump"] as const)("SyncLink (%s host)", (loop) => {
  it("answers calls with the host's results and errors, beside the host's own link", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    expect(link.call("echo", '{"a":[1,"two"]}', patient())).toEqual({
      status: "result",
      result: { a: [1, "two"] },
    });
    expect(
      link.call("fail", '{"code":"NO_OBJECT","message":"no Cube","data":{"n":1}}', patient()),
    ).toEqual({
      status: "error",
      code: "NO_OBJECT",
      message: "no Cube",
      data: { n: 1 },
      completion: "complete",
    });
    expect(link.call("missing", "{}", patient())).toMatchObject({
      status: "error",
      code: "UNKNOWN_METHOD",
    });
    // The process's main link still works beside it.
    await expect(host.call("echo", { b: 2 })).resolves.toEqual({ b: 2 });
    // An answer larger than one read arrives whole.
    const big = link.call("big", '{"bytes":300000}', patient());
    expect(big.status === "result" && (big.result as string).length).toBe(300_000);
  });

  it("stops waiting when told to, and skips the stopped call's late answer", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    const startedAt = Date.now();
    // Work of 30 s: only the stop can end the wait, however slow the machine.
    const stopped = link.call("work", '{"units":3000,"unitSeconds":0.01}', {
      deadline: Date.now() + 60_000,
      shouldStop: () => Date.now() - startedAt > 100,
    });
    expect(stopped).toEqual({ status: "stopped", reason: "stopped" });
    // The host was asked to cancel: the next call is answered, not the cancelled one's reply.
    expect(link.call("echo", '{"next":true}', patient())).toEqual({
      status: "result",
      result: { next: true },
    });
  });

  it("gives up at its deadline", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    const outcome = link.call("work", '{"units":3000,"unitSeconds":0.01}', {
      deadline: Date.now() + 100,
      shouldStop: () => false,
    });
    expect(outcome).toEqual({ status: "stopped", reason: "deadline" });
    expect(link.broken).toBeUndefined();
    expect(link.call("echo", '{"after":1}', patient())).toEqual({
      status: "result",
      result: { after: 1 },
    });
  });

  it("leaves a late answer to the next call while the event loop runs between calls", async () => {
    // A big answer that arrives after its call stopped waiting, while this thread is idle: the
    // host answers only once the gate file exists, after the call has stopped. The host must
    // see the gate's folder (it runs in the OS sandbox where that works).
    const gate = join(mkdtempSync(join(tmpdir(), "dcc-sync-gate-")), "open");
    gates.push(dirname(gate));
    const host = await startTestHost({ loop, sandboxPaths: { readOnly: [dirname(gate)] } });
    const link = await syncLinkTo(host.link);
    const stopped = link.call("big", JSON.stringify({ bytes: 300_000, gate }), {
      deadline: Date.now() + 20_000,
      shouldStop: () => true,
    });
    expect(stopped).toMatchObject({ status: "stopped" });
    writeFileSync(gate, "");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(link.call("echo", '{"own":true}', patient())).toEqual({
      status: "result",
      result: { own: true },
    });
  });

  it("sees a host that died while the link was idle, without touching a reused descriptor", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    expect(link.call("noop", "{}", patient())).toEqual({ status: "result", result: null });
    process.kill(host.pid as number, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(link.call("echo", "{}", patient())).toMatchObject({ status: "broken" });
  });

  it("refuses a call over the frame limit without breaking", async () => {
    const host = await startTestHost({ loop });
    const access = host.link?.access();
    if (access === undefined) throw new Error("the test host has no link");
    const link = await openSyncLink({ ...access, maxFrameBytes: 1024 });
    opened.push(link);
    const big = JSON.stringify({ text: "x".repeat(2000) });
    expect(link.call("echo", big, patient())).toMatchObject({
      status: "refused",
      message: expect.stringContaining("over the link's limit of 1024"),
    });
    expect(link.call("echo", '{"small":1}', patient())).toMatchObject({ status: "result" });
  });

  it("refuses params nested deeper than 64 levels without breaking", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    const params = (depth: number): string =>
      `{"v":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expect(link.call("echo", params(1000), patient())).toMatchObject({
      status: "refused",
      message: expect.stringContaining("deeper than 64 levels"),
    });
    expect(link.call("echo", params(64), patient())).toMatchObject({ status: "result" });
  });

  it("reports a host that died mid-call as broken, and stays broken", async () => {
    const host = await startTestHost({ loop });
    const link = await syncLinkTo(host.link);
    const pid = host.pid as number;
    const startedAt = Date.now();
    const outcome = link.call("work", '{"units":3000,"unitSeconds":0.01}', {
      deadline: Date.now() + 60_000,
      shouldStop: () => {
        if (Date.now() - startedAt > 100) process.kill(pid, "SIGKILL");
        return false;
      },
    });
    expect(outcome).toMatchObject({ status: "broken" });
    expect(link.broken).toMatch(/closed|reset|fail/);
    expect(link.call("echo", "{}", patient())).toMatchObject({ status: "broken" });
  });
});

describe("openSyncLink", () => {
  it("is refused without the host's token", async () => {
    const host = await startTestHost();
    const access = host.link?.access();
    if (access === undefined) throw new Error("the test host has no link");
    await expect(openSyncLink({ ...access, token: "wrong" })).rejects.toMatchObject({
      code: "AUTH_FAILED",
    });
  });
});
