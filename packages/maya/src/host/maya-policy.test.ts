import { describe, expect, it } from "vitest";
import { mayaPolicyData, mayaPolicyRefusal } from "./maya-policy.ts";

const options = { dataDir: "/srv/dcc-data" };

describe("mayaPolicyRefusal (the TypeScript wall, from the generated rule data)", () => {
  it("refuses every refused command with its rule", () => {
    const data = mayaPolicyData();
    for (const [command, rule] of Object.entries(data.commands)) {
      expect(mayaPolicyRefusal(command, { args: [], flags: {} }, options)?.rule).toBe(rule);
    }
  });

  it("refuses every code-carrying flag of the catalog by its long and short names", () => {
    const data = mayaPolicyData();
    let count = 0;
    for (const [command, flags] of Object.entries(data.flags)) {
      const names = data.names[command] ?? {};
      for (const [flag, rule] of Object.entries(flags)) {
        for (const [name, long] of Object.entries(names)) {
          if (long !== flag) continue;
          const refusal = mayaPolicyRefusal(command, { args: [], flags: { [name]: "x" } }, options);
          expect(refusal?.rule, `${command}(${name})`).toBe(rule);
          expect(refusal?.message).toContain(`'${flag}'`);
        }
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(800);
  });

  it("refuses commands outside the catalog", () => {
    expect(mayaPolicyRefusal("AbcExport", { args: [], flags: {} }, options)?.rule).toBe(
      "not-in-catalog",
    );
  });

  it("allows a query of a code flag and ordinary commands", () => {
    expect(
      mayaPolicyRefusal("expression", { args: ["e1"], flags: { q: true, string: true } }, options),
    ).toBeUndefined();
    expect(mayaPolicyRefusal("polySphere", { args: [], flags: { r: 2 } }, options)).toBeUndefined();
  });

  it("keeps file paths inside the data folder", () => {
    const refused = (command: string, args: unknown[], flags: Record<string, unknown>) =>
      mayaPolicyRefusal(command, { args, flags }, options)?.rule;
    expect(refused("file", ["/etc/passwd"], { open: true })).toBe("data-folder");
    expect(refused("file", ["../x.ma"], { i: true })).toBe("data-folder");
    expect(refused("file", [], { rename: "$HOME/x.ma" })).toBe("data-folder");
    expect(refused("workspace", [], { directory: "/tmp" })).toBe("data-folder");
    expect(refused("file", ["shots/a.ma"], { open: true, force: true })).toBeUndefined();
    expect(refused("file", ["/srv/dcc-data/a.ma"], { open: true })).toBeUndefined();
    expect(refused("file", ["a.ma"], { open: true, executeScriptNodes: true })).toBe(
      "script-nodes",
    );
    expect(refused("createNode", ["script"], {})).toBe("code-nodes");
    expect(refused("file", ["a.ma"], { pss: "x" })).toBe("long-flag-names");
  });

  it("lifts the rules named in allow", () => {
    expect(
      mayaPolicyRefusal(
        "file",
        { args: ["/tmp/a.ma"], flags: { open: true } },
        {
          ...options,
          allow: ["data-folder"],
        },
      ),
    ).toBeUndefined();
  });

  it("refuses render-time MEL and other code attributes on setAttr, connections, aliases and addAttr", () => {
    const rule = (command: string, args: unknown[], flags: Record<string, unknown> = {}) =>
      mayaPolicyRefusal(command, { args, flags }, options)?.rule;
    const hooks = mayaPolicyData().codeAttributes.find((group) =>
      group.nodeTypes.includes("renderGlobals"),
    );
    expect(Object.keys(hooks?.attributes ?? {}).sort()).toEqual(
      [
        "postFurRenderMel",
        "postMel",
        "postRenderLayerMel",
        "postRenderMel",
        "preFurRenderMel",
        "preMel",
        "preRenderLayerMel",
        "preRenderMel",
      ].sort(),
    );
    for (const [long, short] of Object.entries(hooks?.attributes ?? {})) {
      for (const name of [long, short]) {
        expect(
          rule("setAttr", [`defaultRenderGlobals.${name}`, 'system("id")'], { type: "string" }),
        ).toBe("code-attribute");
      }
    }
    expect(rule("setAttr", [":defaultRenderGlobals.preMel", "x"], { typ: "string" })).toBe(
      "code-attribute",
    );
    expect(rule("setAttr", ["expression1.internalExpression", "x"], { type: "string" })).toBe(
      "code-attribute",
    );
    expect(rule("connectAttr", ["a.notes", "defaultRenderGlobals.preRenderMel"])).toBe(
      "code-attribute",
    );
    expect(rule("aliasAttr", ["hook", "defaultRenderGlobals.postMel"])).toBe("code-attribute");
    expect(rule("setAttr", ["asset1.rmbCommand", "system"], { type: "string" })).toBe(
      "code-attribute",
    );
    expect(rule("addAttr", ["a"], { ln: "preMel", dt: "string" })).toBe("code-attribute");
    expect(rule("copyAttr", ["a", "defaultRenderGlobals"], { attribute: ["preMel"] })).toBe(
      "code-attribute",
    );
    // A node named like a hook is not the hook; reading them runs nothing; ordinary attributes
    // are untouched.
    expect(rule("addAttr", ["preMel"], { ln: "notes", dt: "string" })).toBeUndefined();
    expect(
      rule("setAttr", ["defaultRenderGlobals.preMel", ""], { type: "string" }),
    ).toBeUndefined();
    expect(rule("getAttr", ["defaultRenderGlobals.preMel"])).toBeUndefined();
    expect(rule("setAttr", ["pSphere1.translateX", 2])).toBeUndefined();
    expect(rule("connectAttr", ["pSphere1.tx", "pCube1.ty"])).toBeUndefined();
  });

  it("keeps file-name attributes inside the data folder", () => {
    const rule = (command: string, args: unknown[], flags: Record<string, unknown> = {}) =>
      mayaPolicyRefusal(command, { args, flags }, options)?.rule;
    expect(rule("setAttr", ["file1.fileTextureName", "/etc/passwd"], { type: "string" })).toBe(
      "data-folder",
    );
    expect(rule("setAttr", ["file1.ftn", "../../etc/passwd"], { type: "string" })).toBe(
      "data-folder",
    );
    expect(rule("setAttr", ["defaultRenderGlobals.imageFilePrefix", "/root/out"], {})).toBe(
      "data-folder",
    );
    expect(rule("connectAttr", ["a.notes", "file1.fileTextureName"])).toBe("data-folder");
    expect(rule("setAttr", ["file1.fileTextureName", "tex/wood.png"], { type: "string" })).toBe(
      undefined,
    );
  });

  it("confines path flags and refuses programs and settings files", () => {
    const rule = (command: string, args: unknown[], flags: Record<string, unknown> = {}) =>
      mayaPolicyRefusal(command, { args, flags }, options)?.rule;
    expect(rule("writeTake", [], { take: "/root/x.mov" })).toBe("data-folder");
    expect(rule("readTake", [], { take: "/etc/passwd" })).toBe("data-folder");
    expect(rule("diskCache", [], { tempDir: "/root" })).toBe("data-folder");
    expect(rule("readTake", [], { take: "takes/a.mov" })).toBeUndefined();
    expect(rule("showHelp", ["https://example.com"], { absolute: true })).toBe("starts-program");
    expect(rule("help", ["ls"], { documentation: true })).toBe("starts-program");
    expect(rule("launch", [], { webPage: "https://example.com" })).toBe("outside-maya");
    expect(rule("pluginInfo", [], { savePluginPrefs: true })).toBe("settings-files");
    expect(rule("pluginInfo", [], { q: true, savePluginPrefs: true })).toBe("settings-files");
    expect(rule("pluginInfo", ["x"], { e: true, writeRequires: true })).toBe("settings-files");
    expect(rule("workspace", [], { fileRule: ["mel", 'python("import os")'] })).toBe(
      "settings-files",
    );
    expect(rule("workspace", [], { saveWorkspace: true })).toBe("settings-files");
    expect(rule("workspace", [], { newWorkspace: true })).toBe("settings-files");
    expect(rule("savePrefs", [], {})).toBe("settings-files");
    expect(rule("workspace", [], { q: true, fileRule: true })).toBeUndefined();
  });
});
