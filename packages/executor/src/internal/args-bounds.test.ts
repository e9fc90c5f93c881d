// The bounds on dispatch arguments, through DccApiExecutor.execute with real QuickJS: refused in
// the sandbox thread with INVALID_ARGS before any path to the host (main thread or lane) runs.
import { afterAll, describe, expect, it } from "vitest";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import type { ExecuteResult } from "../execute-result.ts";
import { SandboxPool } from "../sandbox-pool.ts";
import { ToolDispatcher } from "../tool-dispatcher.ts";
import { ToolRegistry } from "../tool-registry.ts";

const pool = new SandboxPool({ size: 1 });
afterAll(() => pool.close());

const called: string[] = [];
const registry = new ToolRegistry().registerAll(
  ["echo", "lane.echo"].map((name) => ({
    name,
    handler: (args: unknown) => {
      called.push(name);
      return args;
    },
  })),
);
const lane = {
  module: new URL("../__fixtures__/test-lane.ts", import.meta.url).href,
  data: { host: "one" },
  commands: ["lane.echo"],
  key: "one",
};

function executorWith(options: { limits?: Record<string, number>; lane?: boolean } = {}) {
  return new DccApiExecutor("test", {
    dispatcher: new ToolDispatcher(registry),
    pool,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.lane === true ? { dispatchLane: () => lane } : {}),
  });
}

/** A script line building `{ options: { depth: [[…]] } }`: an object, then arrays, `depth` levels. */
const nestedArgs = (depth: number): string =>
  `let inner = []; for (let i = 0; i < ${depth - 3}; i++) inner = [inner];\n` +
  "const args = { options: { depth: inner } };\n";

const attempt = (command: string): string =>
  `try { return { value: dispatch(${JSON.stringify(command)}, args) !== undefined } } catch (e) { return { code: e.code, message: e.message, completion: e.completion } }`;

/** The script's output object (the scripts here return objects). */
function outputOf(result: ExecuteResult): Record<string, string> {
  if (!result.success) throw new Error(`the script failed: ${result.error}`);
  return result.output as Record<string, string>;
}

describe("dispatch argument bounds", () => {
  it("refuses arguments nested deeper than 64 levels with INVALID_ARGS naming the limit", async () => {
    called.length = 0;
    const executor = executorWith();
    expect(executor.limits.maxArgsDepth).toBe(64);
    const result = await executor.execute(nestedArgs(1000) + attempt("echo"));
    expect(result).toMatchObject({
      success: true,
      output: { code: "INVALID_ARGS", completion: "not_started" },
    });
    const message = outputOf(result)["message"];
    expect(message).toContain("echo");
    expect(message).toContain("deeper than 64 levels");
    expect(called).toEqual([]);
  });

  it("passes arguments at exactly the limit, and refuses one level more", async () => {
    called.length = 0;
    const executor = executorWith();
    const at = await executor.execute(nestedArgs(64) + attempt("echo"));
    expect(at).toMatchObject({ output: { value: true } });
    const over = await executor.execute(nestedArgs(65) + attempt("echo"));
    expect(over).toMatchObject({ output: { code: "INVALID_ARGS" } });
    expect(called).toEqual(["echo"]);
  });

  it("does not count brackets inside strings", async () => {
    const executor = executorWith();
    const result = await executor.execute(
      'return dispatch("echo", { text: "[".repeat(500) + "{" + "\\\\\\"" + "[[[" })',
    );
    expect(result).toMatchObject({ success: true });
    expect(outputOf(result)["text"]).toHaveLength(500 + 1 + 2 + 3);
  });

  it("refuses arguments over limits.maxArgsChars, naming the limit", async () => {
    called.length = 0;
    const executor = executorWith({ limits: { maxArgsChars: 1000 } });
    const result = await executor.execute(
      `const args = { text: "x".repeat(2000) };\n${attempt("echo")}`,
    );
    expect(result).toMatchObject({ output: { code: "INVALID_ARGS", completion: "not_started" } });
    expect(outputOf(result)["message"]).toContain(
      "over the limit of 1000 characters (limits.maxArgsChars)",
    );
    expect(called).toEqual([]);
  });

  it("refuses them the same way for a command the dispatch lane runs", async () => {
    called.length = 0;
    const executor = executorWith({ lane: true });
    const viaLane = await executor.execute('return dispatch("lane.echo", { n: 1 })');
    expect(viaLane).toMatchObject({ output: { via: "lane" } });
    const result = await executor.execute(nestedArgs(1000) + attempt("lane.echo"));
    expect(result).toMatchObject({ output: { code: "INVALID_ARGS" } });
    expect(called).toEqual([]);
  });

  it("lets a configured depth limit through and checks it", async () => {
    expect(() => executorWith({ limits: { maxArgsDepth: 0 } })).toThrow(/maxArgsDepth/);
    const executor = executorWith({ limits: { maxArgsDepth: 8 } });
    const result = await executor.execute(nestedArgs(9) + attempt("echo"));
    expect(result).toMatchObject({ output: { code: "INVALID_ARGS" } });
    expect(outputOf(result)["message"]).toContain("8 levels");
  });
});
