import { describe, expect, it } from "vitest";
import { blenderDataCommands } from "./blender-data-command.ts";

describe("blenderDataCommands", () => {
  it("describes the data-API commands and the capture, each with a signature and dispatch examples", () => {
    const commands = blenderDataCommands();
    expect(commands.map((command) => command.name)).toEqual([
      "data.get",
      "data.set",
      "data.list",
      "data.call",
      "data.describe",
      "viewport.screenshot",
    ]);
    for (const command of commands) {
      expect(command.signature.startsWith(`${command.name}(`), command.name).toBe(true);
      expect(command.description.length, command.name).toBeGreaterThan(80);
      expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const example of command.examples) {
        expect(example, command.name).toContain(`dispatch("${command.name}", {`);
      }
    }
  });

  it("is read once and frozen", () => {
    expect(blenderDataCommands()).toBe(blenderDataCommands());
    expect(Object.isFrozen(blenderDataCommands()[0]?.examples)).toBe(true);
  });
});
