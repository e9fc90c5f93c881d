import { DccMcpError } from "@dcc/cancel";
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "./tool-registry.ts";

const noop = () => null;

describe("ToolRegistry", () => {
  it("registers commands and lists them in order", () => {
    const registry = new ToolRegistry()
      .register({ name: "b", handler: noop })
      .registerAll([{ name: "a", handler: noop }]);
    expect(registry.names()).toEqual(["b", "a"]);
    expect(registry.size).toBe(2);
    expect(registry.has("a")).toBe(true);
    expect(registry.get("a")?.name).toBe("a");
    expect(registry.get("missing")).toBeUndefined();
  });

  it("rejects duplicates, empty names, missing handlers and bad schemas", () => {
    const registry = new ToolRegistry().register({ name: "a", handler: noop });
    const codeOf = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (error) {
        return DccMcpError.is(error) ? error.code : "not a DccMcpError";
      }
      return undefined;
    };
    expect(codeOf(() => registry.register({ name: "a", handler: noop }))).toBe("DUPLICATE_COMMAND");
    expect(codeOf(() => registry.register({ name: " ", handler: noop }))).toBe("INVALID_COMMAND");
    expect(
      codeOf(() => registry.register({ name: "x", handler: undefined as unknown as () => null })),
    ).toBe("INVALID_COMMAND");
    expect(
      codeOf(() => registry.register({ name: "y", handler: noop, argsSchema: { type: "nope" } })),
    ).toBe("INVALID_COMMAND");
  });

  it("validates arguments against the schema", () => {
    const registry = new ToolRegistry().register({
      name: "polySphere",
      handler: noop,
      argsSchema: {
        type: "object",
        properties: { radius: { type: "number" } },
        additionalProperties: false,
      },
    });
    expect(registry.validateArgs("polySphere", { radius: 2 })).toBeNull();
    expect(registry.validateArgs("polySphere", { radius: "2" })).toEqual([
      "args/radius must be number",
    ]);
    expect(registry.validateArgs("polySphere", { size: 1 })?.[0]).toContain(
      "must NOT have additional properties",
    );
  });

  it("produces catalog records from names, signatures and descriptions", () => {
    const registry = new ToolRegistry().registerAll([
      { name: "ls", handler: noop, signature: "ls(flags?: { type?: string }): string[]" },
      { name: "polyCube", handler: noop, description: "Create a polygon cube" },
    ]);
    expect(registry.catalogRecords()).toEqual([
      { name: "ls", signature: "ls(flags?: { type?: string }): string[]" },
      { name: "polyCube", description: "Create a polygon cube" },
    ]);
  });
});
