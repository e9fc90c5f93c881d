import type { DccAdapter } from "@dcc/executor";
import { describe, expect, it } from "vitest";
import type { KnownAdapter } from "./known-adapters.ts";
import { checkDccNames, dccLabels, selectAdapters } from "./select-adapters.ts";

function fake(dccName: string, made: string[]): KnownAdapter {
  return {
    label: `fake ${dccName}`,
    create: (settings): DccAdapter => {
      made.push(`${dccName} ${settings.dataDir ?? "-"}`);
      return {
        dccName,
        commands: () => [],
        catalog: () => {
          throw new Error("not needed");
        },
      };
    },
  };
}

describe("selectAdapters", () => {
  it("makes the simulated Maya by default", () => {
    const [maya, ...rest] = selectAdapters(undefined, {});
    expect(maya?.dccName).toBe("maya");
    expect(rest).toEqual([]);
    expect(dccLabels(undefined)).toBe("simulated Maya");
  });

  it("makes the named adapters in order, with the settings", () => {
    const made: string[] = [];
    const registry = { maya: fake("maya", made), blender: fake("blender", made) };
    const adapters = selectAdapters(["blender", "maya"], { dataDir: "/scenes" }, registry);
    expect(adapters.map((adapter) => adapter.dccName)).toEqual(["blender", "maya"]);
    expect(made).toEqual(["blender /scenes", "maya /scenes"]);
    expect(dccLabels(["maya", "blender"], registry)).toBe("fake maya, fake blender");
  });

  it("refuses an unknown name, listing the known ones, a repeated name and an empty list", () => {
    const registry = { maya: fake("maya", []), blender: fake("blender", []) };
    expect(() => checkDccNames(["maya", "houdini"], registry)).toThrow(
      expect.objectContaining({
        code: "UNKNOWN_DCC",
        message: 'Unknown DCC: "houdini" (known: blender, maya)',
      }),
    );
    expect(() => checkDccNames(["maya", "maya"], registry)).toThrow(/maya is named twice/);
    expect(() => checkDccNames([], registry)).toThrow(/at least one DCC \(known: blender, maya\)/);
    expect(() => checkDccNames(["toString"], registry)).toThrow(/Unknown DCC: "toString"/);
  });
});
