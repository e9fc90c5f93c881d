import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LinkedRecoveryCopy } from "@dcc/linked-adapter";
import { assertBlender, describeWithBlender, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderSession, outputOf, startBlenderSession } from "./support/blender-session.ts";
import { killBlender } from "./support/kill-blender.ts";

// After a forced restart the next command is told what happened; this script catches that
// notice and then reads the scene it finds.
const afterRestart = `
let notice;
try { dispatch("data.list", { collection: "objects" }); } catch (e) { notice = { code: e.code, message: e.message }; }
return { notice, names: dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort() };`;

interface AfterRestart {
  notice?: { code: string; message: string };
  names: string[];
}

/** Kills the running Blender and waits for the next. */
async function killAndRestart(session: BlenderSession): Promise<void> {
  const launches = session.adapter.launches;
  killBlender(session.adapter.pid as number);
  await waitFor("Blender to be restarted", () => session.adapter.launches > launches, 180_000);
}

describeWithBlender("a Blender killed and restarted (recovery copy)", () => {
  let session: BlenderSession;
  // A server killed before it could remove its recovery folder left this one (its owner, the
  // pid in the name, is gone): a launch sweeps it.
  const stale = join(tmpdir(), "dcc-blender-recovery-2147483646-left");
  beforeAll(async () => {
    mkdirSync(stale, { recursive: true });
    assertBlender();
    session = await startBlenderSession({ recovery: { minIntervalMs: 0 } });
  });
  afterAll(async () => {
    await session?.close();
    rmSync(stale, { recursive: true, force: true });
  });

  it("sweeps the recovery folder a killed server left", () => {
    expect(existsSync(stale)).toBe(false);
  });

  it("with no committed change yet: starts from the factory scene and says there was no copy", async () => {
    expect(session.adapter.recoveryCopy).toBeUndefined();
    await killAndRestart(session);
    const seen = outputOf<AfterRestart>(await session.run(afterRestart));
    expect(seen.notice?.code).toBe("HOST_GONE");
    expect(seen.notice?.message).toMatch(/restarted with its factory start-up scene/);
    expect(seen.notice?.message).toMatch(/there was no recovery copy/);
    expect(seen.names).toEqual(["Camera", "Cube", "Light"]);
  });

  it("opens the copy of the last committed script: the objects come back, and the notice says from when", async () => {
    const made = await session.run(`
      dispatch("object.select_all", { action: "DESELECT" });
      for (let i = 0; i < 3; i++) dispatch("mesh.primitive_uv_sphere_add", { location: [i * 3, 5, 0] });
      dispatch("data.set", { path: 'objects["Sphere"].name', value: "Kept" });
      return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();`);
    const names = outputOf<string[]>(made);
    expect(names).toEqual(["Camera", "Cube", "Kept", "Light", "Sphere.001", "Sphere.002"]);
    // The copy of an earlier script may be the last one for a moment: wait for this script's.
    await waitFor(
      "the recovery copy of the spheres",
      () => session.adapter.recoveryCopy?.objects === 6,
      120_000,
    );
    const copy = session.adapter.recoveryCopy;
    expect(copy?.objects).toBe(6);
    // A read-only script commits no change to save; a failed one is rolled back: neither is kept.
    const failed = await session.run(`
      dispatch("mesh.primitive_cone_add", {});
      throw new Error("on purpose");`);
    expect(failed).toMatchObject({ success: false });
    await killAndRestart(session);
    const seen = outputOf<AfterRestart>(await session.run(afterRestart));
    expect(seen.notice?.code).toBe("HOST_GONE");
    const clock = (copy as LinkedRecoveryCopy).savedAt.toISOString().slice(11, 19);
    expect(seen.notice?.message).toContain(
      `restored from its recovery copy saved at ${clock} UTC after "${copy?.label}", 6 objects`,
    );
    expect(seen.names).toEqual(names);
  });

  it("removes its recovery folder on close", async () => {
    // The folder the launch gave Blender (bwrap passes the environment on).
    const environ = readFileSync(`/proc/${session.adapter.pid}/environ`, "utf8").split("\0");
    const folder = environ
      .find((entry) => entry.startsWith("DCC_BLENDER_RECOVERY_DIR="))
      ?.slice("DCC_BLENDER_RECOVERY_DIR=".length);
    expect(existsSync(join(folder as string, "recovery.blend"))).toBe(true);
    await session.close();
    expect(existsSync(folder as string)).toBe(false);
  });
});

describeWithBlender("a Blender ended for a command past its deadline (recovery copy)", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    // Only this test lifts the rule, to get a call Blender cannot interrupt.
    session = await startBlenderSession({
      policy: { allow: ["python-scripts"] },
      recovery: { minIntervalMs: 0 },
      callTimeoutMs: 5000,
      graceMs: 1000,
    });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("tells the script it was ended, that long work belongs in an async job, and what came back", async () => {
    writeFileSync(join(session.dataDir, "hang.py"), "import time\ntime.sleep(3600)\n");
    const made = await session.run(`
      dispatch("mesh.primitive_torus_add", {});
      return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();`);
    expect(outputOf<string[]>(made)).toEqual(["Camera", "Cube", "Light", "Torus"]);
    await waitFor(
      "the recovery copy of the torus",
      () => session.adapter.recoveryCopy?.objects === 4,
      120_000,
    );
    const result = await session.run(`
      try { dispatch("script.python_file_run", { filepath: "hang.py" }); return "returned"; }
      catch (e) { return { code: e.code, message: e.message,
                           names: dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort() }; }`);
    const seen = outputOf<{ code: string; message: string; names: string[] }>(result);
    expect(seen.code).toBe("LINK_TIMEOUT");
    expect(seen.message).toMatch(
      /Blender was restarted with the scene restored from its recovery copy saved at \d\d:\d\d:\d\d UTC/,
    );
    expect(seen.message).toContain(
      "Long work belongs in an async job: async: true with a larger timeout_secs.",
    );
    expect(seen.names).toEqual(["Camera", "Cube", "Light", "Torus"]);
  });
});
