import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeTestHosts, startTestHost } from "./__fixtures__/hosts.ts";
import { sweepStaleFolders } from "./sweep-stale-folders.ts";

const root = mkdtempSync(join(tmpdir(), "dcc-sweep-"));
afterAll(async () => {
  await closeTestHosts();
  rmSync(root, { recursive: true, force: true });
});

/** The id of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

/** A folder `name` under `parent` with a session marker listing `pids`. */
function sessionFolder(parent: string, name: string, pids: readonly number[] | null): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, "tmp"), { recursive: true });
  if (pids !== null)
    writeFileSync(join(dir, ".dcc-link-session"), pids.map((pid) => `${pid}\n`).join(""));
  return dir;
}

describe("stale session folders", () => {
  it("a launch removes the folders whose owners are all dead, and keeps the others", async () => {
    const baseDir = mkdtempSync(join(root, "base-"));
    const dead = sessionFolder(baseDir, "dcc-link-dead01", [deadPid(), deadPid()]);
    const halfAlive = sessionFolder(baseDir, "dcc-link-half01", [deadPid(), process.pid]);
    const alive = sessionFolder(baseDir, "dcc-link-live01", [process.pid]);
    const unknown = sessionFolder(baseDir, "dcc-link-empty1", []);
    const noMarker = sessionFolder(baseDir, "dcc-link-nomark", null);
    const other = sessionFolder(baseDir, "other-dead01", [deadPid()]);
    const host = await startTestHost({ baseDir });
    expect(existsSync(dead)).toBe(false);
    for (const kept of [halfAlive, alive, unknown, noMarker, other])
      expect(existsSync(kept)).toBe(true);
    expect(existsSync(host.sessionDir as string)).toBe(true);
  });

  it("a launch's own marker names the launcher and its host", async () => {
    const baseDir = mkdtempSync(join(root, "base-"));
    const host = await startTestHost({ baseDir, sandbox: "off" });
    const marker = readFileSync(join(host.sessionDir as string, ".dcc-link-session"), "utf8");
    expect(marker).toBe(`${process.pid}\n${host.pid}\n`);
  });

  it("sweepStaleFolders asks for owners by folder and never touches files or other names", async () => {
    const parent = mkdtempSync(join(root, "generic-"));
    mkdirSync(join(parent, "job-1"));
    mkdirSync(join(parent, `job-${process.pid}`));
    writeFileSync(join(parent, "job-2"), "a file");
    const removed = await sweepStaleFolders({
      parent,
      prefix: "job-",
      owners: (_path, name) => (name === "job-1" ? [deadPid()] : [Number(name.slice(4))]),
    });
    expect(removed).toEqual([join(parent, "job-1")]);
    expect(existsSync(join(parent, `job-${process.pid}`))).toBe(true);
    expect(existsSync(join(parent, "job-2"))).toBe(true);
  });
});
