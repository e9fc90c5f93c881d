import { describe, expect, it } from "vitest";
import { createBlenderCatalog } from "../blender-catalog.ts";
import { blenderExecuteDescription, blenderInstructions } from "./blender-tool-texts.ts";

const tools = { search: "dcc_search", execute: "dcc_execute" };

describe("what the Blender texts say is cheap", () => {
  it("tells the agent that operators scale with the scene and data commands are the bulk path", () => {
    const instructions = blenderInstructions(tools, "/data");
    expect(instructions).toMatch(/Operators cost time in proportion to the scene/);
    expect(instructions).toMatch(/For bulk work on a large scene use data commands/);
    expect(instructions).toContain('dispatch("data.call", { path: "objects.new"');
    expect(blenderExecuteDescription(tools)).toMatch(
      /for bulk work on large scenes data\.call \(objects\.new\) and data\.set are the fast path/,
    );
  });

  it("ranks data.call first when a search asks for bulk work on a large scene", () => {
    const catalog = createBlenderCatalog();
    for (const query of ["bulk work on a large scene", "add many objects fast in a large scene"]) {
      expect(catalog.search(query, { limit: 5 })[0]?.name, query).toBe("data.call");
    }
  });
});
