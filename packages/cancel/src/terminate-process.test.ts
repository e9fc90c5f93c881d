import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessTerminationError } from "./process-termination-error.ts";
import { terminateProcess } from "./terminate-process.ts";

const fixture = fileURLToPath(new URL("./__fixtures__/stubborn-child.mjs", import.meta.url));
const children: ChildProcess[] = [];
const output = new Map<ChildProcess, string>();
const closed = new Map<ChildProcess, Promise<unknown>>();

/** Spawns the fixture and waits (bounded by the test timeout) until its handler is installed. */
async function spawnChild(mode: "ignore" | "obey"): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fixture, mode], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  closed.set(child, once(child, "close"));
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  expect(chunk.toString()).toContain("ready");
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (text: string) => output.set(child, (output.get(child) ?? "") + text));
  return child;
}

/** True while the kernel still has an entry for `pid` (running or zombie). */
function processEntryExists(pid: number): boolean {
  if (existsSync(`/proc/${pid}`)) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

describe("terminateProcess", () => {
  it("sends SIGTERM, then SIGKILL to a child that ignores SIGTERM, and leaves no zombie", async () => {
    const child = await spawnChild("ignore");
    const pid = child.pid as number;
    const result = await terminateProcess(child, { graceMs: 300 });
    expect(result).toEqual({ exitCode: null, signalCode: "SIGKILL", forced: true });
    // SIGTERM came first: the child saw it and ignored it before SIGKILL ended it.
    await closed.get(child);
    expect(output.get(child)).toContain("SIGTERM ignored");
    expect(processEntryExists(pid)).toBe(false);
  });

  it("does not escalate when the child obeys SIGTERM", async () => {
    const child = await spawnChild("obey");
    const pid = child.pid as number;
    const result = await terminateProcess(child, { graceMs: 10_000 });
    expect(result.forced).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(processEntryExists(pid)).toBe(false);
  });

  it("uses the polite signal given", async () => {
    const child = await spawnChild("ignore");
    const result = await terminateProcess(child, { signal: "SIGINT", graceMs: 10_000 });
    expect(result).toEqual({ exitCode: null, signalCode: "SIGINT", forced: false });
  });

  it("resolves at once for a process that already exited", async () => {
    const child = spawn(process.execPath, ["-e", "process.exit(3)"]);
    children.push(child);
    await once(child, "exit");
    await expect(terminateProcess(child)).resolves.toEqual({
      exitCode: 3,
      signalCode: null,
      forced: false,
    });
  });

  it("resolves at once for a process that never started", async () => {
    const child = spawn("/nonexistent/definitely-not-a-binary");
    children.push(child);
    await once(child, "error");
    await expect(terminateProcess(child)).resolves.toMatchObject({ forced: false });
  });

  it("has a stable code for a process that survives SIGKILL", () => {
    const error = new ProcessTerminationError({ pid: 12, waitedMs: 5 });
    expect(error.code).toBe("PROCESS_KILL_TIMEOUT");
    expect(error.message).toBe("Process 12 did not exit within 5 ms of SIGKILL");
  });
});
