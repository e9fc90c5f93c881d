// The second security review's attacks on a real-Maya adapter over the stand-in `mayapy`: render-
// time MEL, file-name attributes and path flags outside the data folder, a program started,
// settings written, and a scene that carries code. Each is refused by the TypeScript wall before
// Maya sees it, and by the Maya side for a call that skips that wall; the stand-in's `render`
// shows that no hook ran and no file outside the data folder was read.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

let session: MayaSession;
beforeAll(async () => {
  session = await startMayaSession();
});
afterAll(async () => {
  await session?.close();
});

const cmd = (command: string, args: unknown[] = [], flags: Record<string, unknown> = {}) =>
  session.adapter.call("maya.cmd", { command, args, flags });

async function mayaSideRule(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return (error as { code?: string; data?: { rule?: string } } | undefined)?.data?.rule;
}

describe("the second review's attacks over the stand-in Maya", () => {
  it("refuses each in the TypeScript wall, before Maya sees it", async () => {
    const commands = (): string[] => session.scene.calls.filter((name) => name !== "undoInfo");
    const before = commands().length;
    const result = await session.run(`
      const out = [];
      for (const [name, args] of [
        ["setAttr", { args: ["defaultRenderGlobals.preMel", 'system("id")'], type: "string" }],
        ["setAttr", { args: ["defaultRenderGlobals.preRenderMel", 'system("id")'], type: "string" }],
        ["setAttr", { args: ["file1.fileTextureName", "/etc/passwd"], type: "string" }],
        ["writeTake", { take: "/root/x.mov" }],
        ["readTake", { take: "/etc/passwd" }],
        ["diskCache", { tempDir: "/root" }],
        ["showHelp", { args: ["https://example.com"], absolute: true }],
        ["pluginInfo", { savePluginPrefs: true }],
        ["workspace", { fileRule: ["mel", 'system("id")'] }],
        ["workspace", { saveWorkspace: true }],
      ]) {
        try { dispatch(name, args); out.push("ran"); } catch (e) { out.push([e.code, e.data && e.data.rule, e.completion]); }
      }
      return out;`);
    expect(result).toMatchObject({
      success: true,
      output: [
        ["POLICY", "code-attribute", "not_started"],
        ["POLICY", "code-attribute", "not_started"],
        ["POLICY", "data-folder", "not_started"],
        ["POLICY", "data-folder", "not_started"],
        ["POLICY", "data-folder", "not_started"],
        ["POLICY", "data-folder", "not_started"],
        ["POLICY", "starts-program", "not_started"],
        ["POLICY", "settings-files", "not_started"],
        ["POLICY", "settings-files", "not_started"],
        ["POLICY", "settings-files", "not_started"],
      ],
    });
    expect(commands().length).toBe(before);
  });

  it("refuses them on the Maya side too, and render then runs no hook and reads no outside file", async () => {
    expect(await cmd("shadingNode", ["file"], { asTexture: true })).toBe("file1");
    for (const [command, args, flags, rule] of [
      [
        "setAttr",
        ["defaultRenderGlobals.preMel", 'system("id")'],
        { type: "string" },
        "code-attribute",
      ],
      [
        "setAttr",
        ["defaultRenderGlobals.prm", 'system("id")'],
        { type: "string" },
        "code-attribute",
      ],
      [
        "connectAttr",
        ["file1.fileTextureName", "defaultRenderGlobals.postMel"],
        {},
        "code-attribute",
      ],
      ["setAttr", ["file1.fileTextureName", "/etc/passwd"], { type: "string" }, "data-folder"],
      ["setAttr", ["file1.ftn", "../../etc/passwd"], { type: "string" }, "data-folder"],
      ["readTake", [], { take: "/etc/passwd" }, "data-folder"],
      ["writeTake", [], { take: "/root/x.mov" }, "data-folder"],
      ["diskCache", [], { tempDir: "/root" }, "data-folder"],
      ["showHelp", ["https://example.com"], { absolute: true }, "starts-program"],
      ["pluginInfo", [], { savePluginPrefs: true }, "settings-files"],
      ["pluginInfo", [], { writeRequires: true }, "settings-files"],
      ["workspace", [], { fileRule: ["mel", 'system("id")'] }, "settings-files"],
      ["workspace", [], { saveWorkspace: true }, "settings-files"],
    ] as const) {
      expect(await mayaSideRule(cmd(command, [...args], flags)), `${command} ${args[0]}`).toBe(
        rule,
      );
    }
    await cmd("setAttr", ["file1.fileTextureName", "tex/wood.png"], { type: "string" });
    await cmd("render");
    const output = session.output();
    expect(output).not.toContain("ran MEL");
    expect(output).not.toContain("/etc/passwd");
    expect(output).toContain(`read ${join(session.dataDir, "tex", "wood.png")}`);
  });

  it("refuses to import or open a scene that carries render-time MEL", async () => {
    writeFileSync(
      join(session.dataDir, "shot.ma"),
      '//Maya ASCII 2025 scene\nselect -ne :defaultRenderGlobals;\n\tsetAttr ".prm" -type "string" "system(\\"id\\")";\n',
    );
    const result = await session.run(`
      const out = [];
      for (const flags of [{ i: true }, { open: true, force: true }]) {
        try { dispatch("file", { args: ["shot.ma"], ...flags }); out.push("ran"); } catch (e) { out.push([e.code, e.data && e.data.rule]); }
      }
      return out;`);
    expect(result).toMatchObject({
      success: true,
      output: [
        ["POLICY", "code-attribute"],
        ["POLICY", "code-attribute"],
      ],
    });
  });
});
