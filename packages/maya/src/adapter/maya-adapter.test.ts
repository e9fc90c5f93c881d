import { CancelToken, withCancelToken } from "@dcc/cancel";
import { ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { describe, expect, it } from "vitest";
import { mayaCommands } from "../catalog/maya-commands.ts";
import { createMayaAdapter } from "./maya-adapter.ts";

function dispatcherFor(adapter = createMayaAdapter()) {
  return {
    adapter,
    dispatcher: new ToolDispatcher(new ToolRegistry().registerAll(adapter.commands())),
  };
}

describe("createMayaAdapter", () => {
  it("registers every catalog command, simulated or not", () => {
    const adapter = createMayaAdapter();
    const names = adapter.commands().map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const record of mayaCommands()) expect(names).toContain(record.name);
    expect(adapter.implementedCommands().length).toBeGreaterThanOrEqual(40);
    for (const name of adapter.implementedCommands()) {
      expect(mayaCommands().some((record) => record.name === name)).toBe(true);
    }
    expect(adapter.dccName).toBe("maya");
  });

  it("describes simulated commands with a signature for the registry's catalog records", () => {
    const adapter = createMayaAdapter();
    const records = new ToolRegistry().registerAll(adapter.commands()).catalogRecords();
    const sphere = records.find((record) => record.name === "polySphere");
    expect(sphere?.signature).toMatch(/^polySphere\(\{ .*position\?: \[number, number, number\]/);
    expect(sphere?.description).toMatch(/polygon sphere/);
  });

  it("runs simulated commands through the real dispatcher", async () => {
    const { dispatcher, adapter } = dispatcherFor();
    for (let i = 0; i < 5; i++) await dispatcher.dispatch("polySphere", { position: [i, 0, 0] });
    expect(await dispatcher.dispatch("ls", { type: "transform" })).toEqual([
      "pSphere1",
      "pSphere2",
      "pSphere3",
      "pSphere4",
      "pSphere5",
    ]);
    expect(adapter.scene.execute("getAttr", ["pSphere5.tx"])).toBe(4);
  });

  it("fails an unsimulated catalog command with NOT_IMPLEMENTED naming it", async () => {
    const { dispatcher } = dispatcherFor();
    await expect(dispatcher.dispatch("polyBevel", {})).rejects.toMatchObject({
      code: "NOT_IMPLEMENTED",
      command: "polyBevel",
      message: expect.stringMatching(
        /^polyBevel is a Maya command, but the simulated scene does not implement it\. Simulated commands: .*polySphere/,
      ),
    });
    await expect(dispatcher.dispatch("notAMayaCommand", {})).rejects.toMatchObject({
      code: "UNKNOWN_COMMAND",
    });
  });

  it("keeps scene error codes and messages", async () => {
    const { dispatcher } = dispatcherFor();
    await expect(dispatcher.dispatch("getAttr", ["foo.tx"])).rejects.toMatchObject({
      code: "NO_OBJECT",
      message: "No object matches name: foo.tx",
    });
    await expect(dispatcher.dispatch("polyCube", { size: 1 })).rejects.toMatchObject({
      code: "INVALID_FLAG",
      message: expect.stringMatching(/'size' for polyCube/),
    });
  });

  it("stops at cancellation checkpoints: the ambient token and the call's signal", async () => {
    const { dispatcher, adapter } = dispatcherFor();
    const token = new CancelToken();
    token.cancel("user stop");
    await expect(
      withCancelToken(token, () => dispatcher.dispatch("polyCube", {})),
    ).rejects.toMatchObject({ code: "CANCELLED" });
    const controller = new AbortController();
    const handler = adapter.commands().find((command) => command.name === "ls")?.handler;
    controller.abort("stop");
    expect(() => handler?.({}, { signal: controller.signal, command: "ls" })).toThrow(
      expect.objectContaining({ code: "CANCELLED" }),
    );
    expect(adapter.scene.execute("ls", { type: "transform" })).toEqual([]);
  });

  it("searches the Maya catalog", () => {
    const results = createMayaAdapter().catalog().search("create polygon sphere", { limit: 5 });
    expect(results.map((record) => record.name)).toContain("polySphere");
  });
});
