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
    expect(refused("workspace", [], { fileRule: ["images", "/tmp"] })).toBe("data-folder");
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
});
