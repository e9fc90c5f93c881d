import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { blenderInstructions } from "../src/adapter/blender-tool-texts.ts";
import { type BlenderSession, startBlenderSession } from "./support/blender-session.ts";

describeWithBlender("the instructions' bulk example, in a real Blender", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("places copies of a mesh with data commands, as the instructions show", async () => {
    const text = blenderInstructions({ search: "dcc_search", execute: "dcc_execute" }, "/data");
    const example = /to place 500 copies of a mesh, (.*) rather than 500/.exec(text)?.[1];
    expect(example).toBeDefined();
    // Fewer copies keep the test short; the code is the instructions' own.
    const code = (example as string).replaceAll("500", "20");
    const result = await session.run(`${code}
      return {
        last: dispatch("data.get", { path: 'objects["Copy19"].location' }),
        mesh: dispatch("data.get", { path: 'objects["Copy0"].data' }),
        linked: dispatch("data.list", { collection: 'collections["Collection"].objects' }).length,
      };`);
    expect(result).toMatchObject({
      success: true,
      output: { last: [57, 0, 0], mesh: { type: "Mesh", name: "Cube" } },
    });
    // The start-up scene's cube, camera and light, and the copies.
    expect((result as unknown as { output: { linked: number } }).output.linked).toBe(23);
  });
});
