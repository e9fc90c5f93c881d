import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";
import { bwrapInstallCommand, runSandboxTests } from "./support/bwrap-available.ts";

// The capture check is a wall of its own, behind the policy: with the policy's Python rule
// lifted (the strongest route past it), Python inside the sandboxed Blender makes its capture
// handler put a link to a host-only file, or a FIFO, where the image was written. The adapter
// refuses both, and the next capture works on the same Blender.
describe.runIf(runSandboxTests)(
  `captures from a Blender taken over (needs bwrap: ${bwrapInstallCommand})`,
  () => {
    describeWithBlender("in the OS sandbox, python-scripts lifted", () => {
      let session: BlenderSession;
      let outside: string;
      let secret: string;
      beforeAll(async () => {
        assertBlender();
        outside = mkdtempSync(join(tmpdir(), "dcc-blender-outside-"));
        secret = join(outside, "secret.png");
        const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
        writeFileSync(secret, Buffer.concat([Buffer.from(png), Buffer.from("host-only secret")]));
        session = await startBlenderSession({
          window: "none",
          sandbox: "on",
          policy: { allow: ["python-scripts"] },
        });
      });
      afterAll(async () => {
        await session?.close();
        if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
      });

      /** Python run inside Blender: after each capture is written, `lie` replaces its file. */
      async function takeOver(lie: "symlink" | "fifo" | "none"): Promise<void> {
        writeFileSync(
          join(session.dataDir, "take_over.py"),
          `import glob, os
import dcc_blender.capture as capture
real = capture.__dict__.setdefault("_real_settings", capture._Settings)

class Lying(real):
    def __exit__(self, *exc):
        result = super().__exit__(*exc)
        tmp = os.environ["TMPDIR"]
        # Wherever the capture file is: Blender's own temporary folder, or the host's folder.
        found = glob.glob(os.path.join(tmp, "dcc-capture-*"))
        found += glob.glob(os.path.join(os.path.dirname(tmp), "dcc-capture-*", "dcc-capture-*"))
        for path in found:
            os.unlink(path)
            if ${JSON.stringify(lie)} == "symlink":
                os.symlink(${JSON.stringify(secret)}, path)
            else:
                os.mkfifo(path)
        return result

capture._Settings = real if ${JSON.stringify(lie)} == "none" else Lying
`,
        );
        const ran = await session.run(
          `return dispatch("script.python_file_run", { filepath: "take_over.py" });`,
        );
        expect(ran).toMatchObject({ success: true });
      }

      it.each([
        ["symlink", /is a symbolic link/],
        ["fifo", /is a FIFO, not a regular file/],
      ] as const)("refuses a %s put in place of the capture", async (lie, message) => {
        expect(session.adapter.sandboxed).toBe(true);
        await takeOver(lie);
        const result = await session.run(
          `try { return dispatch("viewport.screenshot", { width: 32, source: "camera" }); }
         catch (e) { return { code: e.code, message: e.message }; }`,
          { timeoutSecs: 30 },
        );
        expect(result).toMatchObject({
          success: true,
          output: { code: "CAPTURE_REJECTED", message: expect.stringMatching(message) },
        });
        expect(result.success && result.images).toBeUndefined();

        await takeOver("none");
        const honest = await session.run(
          `return dispatch("viewport.screenshot", { width: 32, source: "camera" });`,
          { timeoutSecs: 30 },
        );
        expect(honest).toMatchObject({ success: true, output: { width: 32 } });
        expect(session.adapter.launches).toBe(1);
      });
    });
  },
);
