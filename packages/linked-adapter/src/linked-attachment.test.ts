import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DccHostStatus } from "@dcc/executor";
import { CommandError } from "@dcc/executor";
import { linkPythonPath } from "@dcc/link";
import { afterEach, describe, expect, it } from "vitest";
import { kitHostScript, python } from "./__fixtures__/python.ts";
import { waitUntil } from "./__fixtures__/wait.ts";
import { LinkedAttachment } from "./linked-attachment.ts";
import type { LinkedHostEvent } from "./linked-connection.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A DCC the user runs: the kit host in attach mode, writing connection.json in `folder`. */
async function userDcc(folder: string): Promise<ChildProcess> {
  rmSync(join(folder, "connection.json"), { force: true });
  rmSync(join(folder, "link.sock"), { force: true });
  const child = spawn(python, ["-S", kitHostScript, "attach", folder], {
    env: { ...process.env, PYTHONPATH: linkPythonPath() },
    stdio: "ignore",
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  });
  await waitUntil(() => existsSync(join(folder, "link.sock")), "the DCC listens");
  return child;
}

describe("LinkedAttachment", () => {
  it("attaches through the connection file, and reattaches to a DCC started again", async () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-kit-attach-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const first = await userDcc(folder);
    const statuses: DccHostStatus[] = [];
    const events: LinkedHostEvent[] = [];
    const attachment = new LinkedAttachment({
      displayName: "KitDCC",
      connectionFile: join(folder, "connection.json"),
      retryMs: 50,
      onStatus: (status) => statuses.push(status),
    });
    cleanups.push(() => attachment.close());
    attachment.onEvent((event) => events.push(event));
    await attachment.start();
    const signal = new AbortController().signal;
    expect(await attachment.call("kit.pid", "pid", {}, signal)).toBe(first.pid);
    expect(attachment.pid).toBe(first.pid);

    first.kill("SIGKILL");
    await waitUntil(() => statuses.length > 0, "the DCC was reported gone");
    expect(statuses[0]?.state).toBe("unavailable");
    const gone = await attachment.call("kit.pid", "pid", {}, signal).catch((error) => error);
    expect(gone).toBeInstanceOf(CommandError);
    expect((gone as CommandError).code).toBe("HOST_GONE");
    expect((gone as CommandError).completion).toBe("not_started");
    expect((gone as CommandError).message).toContain("no KitDCC is attached");

    const second = await userDcc(folder);
    await waitUntil(() => statuses.length > 1, "the DCC was reattached");
    expect(statuses[1]).toEqual({ state: "ready" });
    expect(await attachment.call("kit.pid", "pid", {}, signal)).toBe(second.pid);
    expect(events.map((event) => event.type)).toEqual(["exit", "restart"]);
    expect(attachment.launches).toBe(2);
  });

  it("never ends the DCC for a command past its deadline, and says so", async () => {
    const folder = mkdtempSync(join(tmpdir(), "dcc-kit-attach-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const dcc = await userDcc(folder);
    const attachment = new LinkedAttachment({
      displayName: "KitDCC",
      connectionFile: join(folder, "connection.json"),
      callTimeoutMs: 1000,
      onStatus: () => undefined,
    });
    cleanups.push(() => attachment.close());
    await attachment.start();
    const signal = new AbortController().signal;
    const error = await attachment.call("kit.hang", "kit.hang", {}, signal).catch((e) => e);
    expect(error).toMatchObject({ code: "LINK_TIMEOUT", completion: "unknown" });
    expect((error as CommandError).message).toContain(
      "The attached KitDCC was not ended (it is the user's): it may still be running the command",
    );
    expect((error as CommandError).message).toContain("async: true with a larger timeout_secs");
    expect(dcc.exitCode === null && dcc.signalCode === null).toBe(true);
  });

  it("names the connection file it cannot read", async () => {
    const attachment = new LinkedAttachment({
      displayName: "KitDCC",
      connectionFile: "/nonexistent/connection.json",
      onStatus: () => undefined,
    });
    await expect(attachment.start()).rejects.toThrow(
      /Cannot read the KitDCC connection file \/nonexistent\/connection.json/,
    );
  });
});
