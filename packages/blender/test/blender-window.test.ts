import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";

// A Blender with its window manager running serves the link from bpy.app.timers, as the add-on
// does in an interactive Blender: Xvfb makes that path run without a display.
describeWithBlender("Blender with a window, under Xvfb", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession({ window: "xvfb" });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("serves the link from the main loop's timer", async () => {
    expect(await session.adapter.call("ping")).toMatchObject({
      loop: "pump",
      background: false,
      blender: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it("runs operators that need a 3D view, and a script of many commands", async () => {
    const result = await session.run(`
      for (let i = 0; i < 5; i++) dispatch("mesh.primitive_uv_sphere_add", { location: [i, 0, 0] });
      dispatch("view3d.view_all", {});
      return dispatch("data.list", { collection: "objects", options: { type: "MESH" } }).length;`);
    expect(result).toMatchObject({ success: true, output: 6 });
  });
});
