import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";

// Headless Blender draws through EGL. Where no EGL driver answers (libglvnd without
// libegl-mesa0; forced here with libglvnd's own `__EGL_VENDOR_LIBRARY_FILENAMES`, naming no
// vendor file), a capture used to abort Blender and have it restarted. The start-up probe finds
// it instead: the capture answers CAPTURE_UNAVAILABLE with what to install, and Blender stays up.
// (Where EGL works, as on this machine by default, blender-capture.test.ts captures.)
describeWithBlender("viewport.screenshot where headless Blender cannot draw", () => {
  let session: BlenderSession;
  const knob = "__EGL_VENDOR_LIBRARY_FILENAMES";
  beforeAll(async () => {
    assertBlender();
    const before = process.env[knob];
    process.env[knob] = "/nonexistent/dcc-no-egl-vendor.json";
    try {
      session = await startBlenderSession({ window: "none" });
    } finally {
      if (before === undefined) delete process.env[knob];
      else process.env[knob] = before;
    }
  });
  afterAll(async () => {
    await session?.close();
  });

  it("answers CAPTURE_UNAVAILABLE saying what to install, and Blender stays up", async () => {
    const engine = `return dispatch("data.get", { path: "context.scene.render.engine" });`;
    // The factory scene's engine, whatever this Blender calls EEVEE.
    const before = await session.run(engine);
    expect(before).toMatchObject({
      success: true,
      output: expect.stringMatching(/^BLENDER_EEVEE/),
    });
    const result = await session.run(`
      try { return dispatch("viewport.screenshot", { width: 64 }); }
      catch (e) { return { code: e.code, message: e.message, data: e.data }; }`);
    expect(result).toMatchObject({
      success: true,
      output: {
        code: "CAPTURE_UNAVAILABLE",
        message: expect.stringContaining("apt-get install libegl1 libegl-mesa0"),
        data: { install: ["libegl1", "libegl-mesa0"] },
      },
    });
    expect(result.success && JSON.stringify(result.output)).toContain("found no EGL driver");
    // Blender answers the next command, from the same scene.
    const after = await session.run(engine);
    expect(after).toMatchObject({ success: true, output: before.success ? before.output : "" });
    expect(session.adapter.launches).toBe(1);
  });
});
