import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { exitOf, processAlive, waitUntil } from "./__fixtures__/wait.ts";

const parentScript = fileURLToPath(new URL("./__fixtures__/watchdog-parent.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const leftovers: number[] = [];

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
});

describe.each([
  ["blocking", "idle"],
  ["pump", "idle"],
  ["blocking", "busy"],
  ["pump", "busy"],
  ["blocking", "group"],
  ["pump", "group"],
] as const)("the watchdog (%s host, %s)", (loop, state) => {
  it("ends the host and removes its folder when the Node parent is killed", async () => {
    const args = ["--conditions=@dcc/source", "--import", "tsx", parentScript, loop, state];
    // "group": the parent leads its own process group, and SIGTERM reaches both at once, as
    // when a test runner or a shell stops everything.
    const parent = spawn(process.execPath, args, {
      cwd: packageDir,
      stdio: ["ignore", "pipe", "inherit"],
      detached: state === "group",
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
