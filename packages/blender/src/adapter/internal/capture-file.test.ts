import {
  existsSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCaptureFile, readCaptureFile, removeCaptureFile } from "./capture-file.ts";

// What the host does with the file a capture lands in, on a real file system: the lies a DCC
// can put in its place are in test/blender-capture-lies.test.ts.
describe("capture files", () => {
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "dcc-capture-file-test-"));
  });
  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it("creates an empty 0600 file in a fresh 0700 folder, reads it, and removes both", async () => {
    const file = await createCaptureFile(parent, ".png");
    expect(file.path.startsWith(`${file.folder}/dcc-capture-`)).toBe(true);
    expect(statSync(file.folder).mode & 0o777).toBe(0o700);
    expect(statSync(file.path)).toMatchObject({ size: 0 });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    writeFileSync(file.path, "image bytes");
    const data = await readCaptureFile(file, { command: "viewport.screenshot" });
    expect(Buffer.from(data).toString()).toBe("image bytes");
    await removeCaptureFile(file);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("refuses an empty file and one over the bound", async () => {
    const file = await createCaptureFile(parent, ".png");
    await expect(readCaptureFile(file, { command: "viewport.screenshot" })).rejects.toMatchObject({
      code: "CAPTURE_REJECTED",
      message: `viewport.screenshot: the capture was refused: Blender wrote nothing to ${file.path}`,
    });
    writeFileSync(file.path, "12345");
    await expect(
      readCaptureFile(file, { command: "viewport.screenshot", maxBytes: 4 }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("holds 5 bytes, over the bound of 4"),
    });
    await removeCaptureFile(file);
  });

  it("stops at once when the command is stopped", async () => {
    const file = await createCaptureFile(parent, ".png");
    writeFileSync(file.path, "image bytes");
    await expect(
      readCaptureFile(file, { command: "viewport.screenshot", signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      code: "CAPTURE_REJECTED",
      message: expect.stringContaining("the command was stopped while its file was read"),
    });
    await removeCaptureFile(file);
  });

  it("removes only the file it created: a file put in its place stays", async () => {
    const file = await createCaptureFile(parent, ".png");
    const other = join(parent, "other.png");
    writeFileSync(other, "not the host's");
    unlinkSync(file.path);
    // A link to another file (a file removed and made again may get the same inode back: that
    // one holds only what its writer could have written into the host's file anyway).
    linkSync(other, file.path);
    await expect(readCaptureFile(file, { command: "viewport.screenshot" })).rejects.toMatchObject({
      message: expect.stringContaining("is not the file the host created there (it was replaced)"),
    });
    await removeCaptureFile(file);
    expect(existsSync(file.path)).toBe(true);
  });
});
