import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";

// The host decides where a capture lands and checks what it finds there: a Blender that lies
// (code running inside it, past the policy) gets a clear refusal, never a host-only file, a hung
// host or a file of its own removed. The stand-in answers the capture call with each lie the
// script asks for; after every lie an honest capture still works, with no restart.
const standIn = fileURLToPath(new URL("./fixtures/lying_blender.py", import.meta.url));
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("viewport.screenshot against a Blender that lies", () => {
  let session: BlenderSession;
  let hostOnly: string;
  let secret: string;
  let sameName: string;
  beforeAll(async () => {
    // A folder of the host's the stand-in is pointed at: a PNG whose bytes must never come back.
    hostOnly = mkdtempSync(join(tmpdir(), "dcc-capture-host-only-"));
    secret = join(hostOnly, "secret.png");
    writeFileSync(secret, Buffer.concat([png, Buffer.from("host-only secret")]));
    mkdirSync(join(hostOnly, "same-name"));
    sameName = join(hostOnly, "same-name", "dcc-capture-image.png");
    writeFileSync(sameName, Buffer.concat([png, Buffer.from("host-only secret")]));
    session = await startBlenderSession({ blenderBin: standIn, sandbox: "off" });
  });
  afterAll(async () => {
    await session?.close();
    rmSync(hostOnly, { recursive: true, force: true });
  });

  /** The capture's error code and message, or what came back instead. */
  async function capture(args: Record<string, unknown>): Promise<unknown> {
    const result = await session.run(
      `try { return dispatch("viewport.screenshot", ${JSON.stringify(args)}); }
       catch (e) { return { code: e.code, message: e.message }; }`,
      { timeoutSecs: 30 },
    );
    return result.success ? result.output : { failed: result.errorCode, error: result.error };
  }

  async function expectHealthy(): Promise<void> {
    const honest = await session.run(`return dispatch("viewport.screenshot", {});`, {
      timeoutSecs: 30,
    });
    expect(honest).toMatchObject({ success: true, output: { $image: "img-1", width: 2 } });
    expect(honest.success && honest.images?.length).toBe(1);
    expect(session.adapter.launches).toBe(1);
  }

  it("takes an honest capture, and leaves no capture file behind", async () => {
    await expectHealthy();
    const sessionDir = session.adapter.sessionDir as string;
    expect(readdirSync(sessionDir).filter((name) => name.startsWith("dcc-capture-"))).toEqual([]);
  });

  it.each([
    ["symlink", "secret", /is a symbolic link/],
    ["hardlink", "secret", /not the file the host created there \(it was replaced\)/],
    ["folder-link", "same-name", /not the file the host created there \(it was replaced\)/],
    ["fifo", undefined, /is a FIFO, not a regular file/],
    ["folder", undefined, /is a folder, not a regular file/],
    ["huge", undefined, /holds 67108864 bytes, over the bound of 16777216/],
  ] as const)("refuses a %s in place of the capture file", async (lie, pointedAt, message) => {
    const target = { secret, "same-name": sameName, none: undefined }[pointedAt ?? "none"];
    const outcome = await capture({ lie, target });
    expect(outcome).toMatchObject({
      code: "CAPTURE_REJECTED",
      message: expect.stringMatching(message),
    });
    expect(JSON.stringify(outcome)).not.toContain("secret");
    // What the lie pointed at is not the host's to remove.
    if (target !== undefined) expect(existsSync(target)).toBe(true);
    await expectHealthy();
  });

  it("refuses a capture that names another file, and leaves that file alone", async () => {
    const elsewhere = join(session.dataDir, "dcc-capture-keep.png");
    writeFileSync(elsewhere, Buffer.concat([png, Buffer.from("the user's own file")]));
    const outcome = await capture({ lie: "elsewhere", target: elsewhere });
    expect(outcome).toMatchObject({
      code: "CAPTURE_REJECTED",
      message: expect.stringContaining(
        `answered with the file "${elsewhere}", not the one the host gave it`,
      ),
    });
    expect(existsSync(elsewhere)).toBe(true);
    await expectHealthy();
  });

  it("refuses a path from the script: the host chooses it", async () => {
    const outcome = await capture({ path: join(session.dataDir, "mine.png") });
    expect(outcome).toMatchObject({
      code: "INVALID_ARGS",
      message: "viewport.screenshot takes no path: the host chooses where the capture is written",
    });
    await expectHealthy();
  });
});
