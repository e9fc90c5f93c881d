import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnTied } from "@dcc/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { describeWithBwrap } from "./__fixtures__/bwrap-available.ts";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { exitOf, processAlive, waitUntil } from "./__fixtures__/wait.ts";

const parentScript = fileURLToPath(new URL("./__fixtures__/watchdog-parent.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const leftovers: number[] = [];

afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
  await closeTestHosts();
});

/** Starts watchdog-parent.ts; resolves with it and the host's pid and session folder. */
async function startParent(extra: readonly string[], group: boolean) {
  const args = ["--conditions=@dcc/source", "--import", "tsx", parentScript, ...extra];
  // Killed with this worker if the worker dies first; the test kills it itself otherwise.
  const parent = spawnTied(process.execPath, args, {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "inherit"],
    detached: group,
  });
  leftovers.push(parent.pid as number);
  let text = "";
  parent.stdout?.setEncoding("utf8");
  for await (const chunk of parent.stdout as AsyncIterable<string>) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  const { pid, sessionDir } = JSON.parse(text) as { pid: number; sessionDir: string };
  leftovers.push(pid);
  return { parent, pid, sessionDir };
}

describe.each([
  ["blocking", "idle"],
  ["pump", "idle"],
  ["blocking", "busy"],
  ["pump", "busy"],
  ["blocking", "group"],
  ["pump", "group"],
] as const)("the watchdog (%s host, %s)", (loop, state) => {
  it("ends the host and removes its folder when the Node parent is killed", async () => {
    // "group": the parent leads its own process group, and SIGTERM reaches both at once, as
    // when a test runner or a shell stops everything.
    const { parent, pid, sessionDir } = await startParent([loop, state], state === "group");
    expect(processAlive(pid)).toBe(true);
    expect(existsSync(sessionDir)).toBe(true);
    if (state === "group") process.kill(-(parent.pid as number), "SIGTERM");
    else parent.kill("SIGKILL");
    await exitOf(parent);
    await waitUntil(() => !processAlive(pid), "the orphaned host exits");
    await waitUntil(() => !existsSync(sessionDir), "the host removed the session folder");
    // A loaded machine can take tens of seconds to start node + tsx + the host.
  }, 90_000);
});

describeWithBwrap("a sandboxed host whose Node parent is killed", () => {
  it("dies with it (--die-with-parent); the next launch sweeps the folder left behind", async () => {
    const baseDir = mkdtempSync(join(tmpdir(), "dcc-watchdog-base-"));
    try {
      const { parent, pid, sessionDir } = await startParent(
        ["blocking", "idle", "sandbox", baseDir],
        false,
      );
      expect(existsSync(sessionDir)).toBe(true);
      parent.kill("SIGKILL");
      await exitOf(parent);
      await waitUntil(() => !processAlive(pid), "the sandbox exits");
      // Nobody was left to remove it: the sandbox was killed, not asked to stop.
      expect(existsSync(sessionDir)).toBe(true);
      const next = await startTestHost({ baseDir });
      expect(existsSync(sessionDir)).toBe(false);
      expect(existsSync(next.sessionDir as string)).toBe(true);
    } finally {
      rmSync(baseDir, { recursive: true, force: true });
    }
  }, 90_000);
});
