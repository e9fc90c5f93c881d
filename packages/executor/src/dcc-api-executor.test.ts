import { afterAll, describe, expect, it } from "vitest";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

const registry = new ToolRegistry().registerAll([
  {
    name: "add",
    handler: (args) => (args as { a: number; b: number }).a + (args as { b: number }).b,
  },
  { name: "echo", handler: (args) => args },
  {
    name: "fail",
    handler: () => {
      throw Object.assign(new Error("No object matches name: foo"), { code: "NO_OBJECT" });
    },
  },
]);
const executor = new DccApiExecutor("maya", { dispatcher: new ToolDispatcher(registry) });
afterAll(() => executor.close());

describe("DccApiExecutor.execute", () => {
  it("returns the top-level return value", async () => {
    const result = await executor.execute("return 1 + 1");
    expect(result).toMatchObject({
      success: true,
      message: "Script executed successfully on maya.",
      output: 2,
      logs: [],
      context: {},
      completion: "complete",
    });
  });

  it("dispatches synchronously, with or without await", async () => {
    const result = await executor.execute(
      'const a = dispatch("add", { a: 1, b: 2 });\nconst b = await dispatch("add", { a, b: 3 });\nreturn { a, b, e: dispatch("echo", [1, "x"]) };',
    );
    expect(result).toMatchObject({ success: true, output: { a: 3, b: 6, e: [1, "x"] } });
    expect(result.stats.dispatchCalls).toBe(3);
  });

  it("throws a catchable error carrying command, code and message", async () => {
    const result = await executor.execute(
      'try { dispatch("fail", {}) } catch (e) { return { name: e.name, command: e.command, code: e.code, message: e.message, isError: e instanceof Error } }',
    );
    expect(result).toMatchObject({
      success: true,
      output: {
        command: "fail",
        code: "NO_OBJECT",
        message: "No object matches name: foo",
        isError: true,
      },
    });
  });
});
