import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findBlenderConnection } from "./find-blender-connection.ts";

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A folder as the add-on leaves it: connection.json naming a Blender's pid. */
function linkFolder(base: string, name: string, pid: number, ageSecs: number): string {
  const folder = join(base, name);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, "connection.json");
  writeFileSync(file, JSON.stringify({ socket: join(folder, "link.sock"), token: "t", pid }));
  const when = Date.now() / 1000 - ageSecs;
  utimesSync(file, when, when);
  return file;
}

// A pid no process has (far above the kernel's default pid_max).
const deadPid = 2 ** 30;

describe("findBlenderConnection", () => {
  it("takes the newest dcc-blender-* folder whose Blender still runs", async () => {
    root = mkdtempSync(join(tmpdir(), "find-connection-"));
    linkFolder(root, "dcc-blender-old", process.pid, 60);
    const newest = linkFolder(root, "dcc-blender-new", process.pid, 1);
    linkFolder(root, "dcc-blender-dead", deadPid, 0);
    linkFolder(root, "other-folder", process.pid, 0);
    expect(await findBlenderConnection({ env: { TMPDIR: root } })).toBe(newest);
  });

  it("uses DCC_BLENDER_LINK_DIR when set, and says where it looked when nothing runs", async () => {
    root = mkdtempSync(join(tmpdir(), "find-connection-"));
    const chosen = linkFolder(root, "chosen", process.pid, 0);
    expect(
      await findBlenderConnection({ env: { DCC_BLENDER_LINK_DIR: join(root, "chosen") } }),
    ).toBe(chosen);
    linkFolder(root, "dcc-blender-dead", deadPid, 0);
    await expect(findBlenderConnection({ env: { TMPDIR: root } })).rejects.toMatchObject({
      code: "BLENDER_CONNECTION_NOT_FOUND",
      message: expect.stringContaining(
        `looked at: ${join(root, "dcc-blender-*", "connection.json")}`,
      ),
    });
  });
});
