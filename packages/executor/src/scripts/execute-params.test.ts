import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import type { ExecuteResult } from "../execute-result.ts";
import { SandboxPool } from "../sandbox-pool.ts";
import { ToolDispatcher } from "../tool-dispatcher.ts";
import { ToolRegistry } from "../tool-registry.ts";
import { type ExecuteParamsRequest, prepareScriptCall } from "./execute-params.ts";
import { InvalidParametersError } from "./invalid-parameters-error.ts";
import { NoMainFunctionError } from "./no-main-function-error.ts";
import { ScriptHashMismatchError } from "./script-hash-mismatch-error.ts";
import { ScriptStore } from "./script-store.ts";

// The real sandbox runs the guest code: DccApiExecutor.executeParams over each test's store, on
// one shared pool.
const calls: unknown[] = [];
const registry = new ToolRegistry().registerAll([
  {
    name: "record",
    handler: (args) => {
      calls.push(args);
      return "ok";
    },
  },
]);
const dispatcher = new ToolDispatcher(registry);
const pool = new SandboxPool();
afterAll(() => pool.close());
const executeParams = (
  scripts: ScriptStore,
  request: ExecuteParamsRequest,
): Promise<ExecuteResult> =>
  new DccApiExecutor("maya", { dispatcher, pool, scripts }).executeParams(request);

const scaleScript = `type integer = number;
/** Scales things. */
async function main(scale: number, copies: integer = 1, label: string | null = null, axis?: "x" | "y") {
  dispatch("record", { scale, copies });
  return { value: scale * copies, label, axis: axis ?? "none" };
}
`;

let root: string;
let store: ScriptStore;
beforeEach(async (context) => {
  root = await mkdtemp(path.join(tmpdir(), "dcc-params-"));
  store = new ScriptStore({ root });
  calls.length = 0;
  context.onTestFinished(() => rm(root, { recursive: true, force: true }));
});

describe("executeParams through the real sandbox", () => {
  it("calls main with named parameters, defaults applying to absent ones", async () => {
    const script = await store.materialize(scaleScript, { dccType: "maya", reuse: true });
    const result = await executeParams(store, {
      filePath: script.filePath,
      params: { scale: 2.5, copies: 4 },
      sha256: script.sha256,
    });
    expect(result).toMatchObject({
      success: true,
      output: { value: 10, label: null, axis: "none" },
    });
    expect(calls).toEqual([{ scale: 2.5, copies: 4 }]);
    const defaults = await executeParams(store, {
      filePath: script.filePath,
      params: { scale: 3, axis: "y", label: "a" },
    });
    expect(defaults).toMatchObject({ success: true, output: { value: 3, label: "a", axis: "y" } });
  });

  it("reports the script in context.materialized_script", async () => {
    const script = await store.materialize(scaleScript, {
      dccType: "maya",
      sessionId: "task-42",
      reuse: true,
      ttlSecs: 600,
      toolCallId: "call-7",
    });
    const result = await executeParams(store, { filePath: script.filePath, params: { scale: 1 } });
    expect(result.success).toBe(true);
    const context = (result as { context: Record<string, unknown> }).context;
    expect(context["materialized_script"]).toEqual({
      source: "file_path",
      filePath: script.filePath,
      path: script.filePath,
      fileRef: script.fileRef,
      sha256: script.sha256,
      bytes: script.bytes,
      reused: true,
      expiresAt: script.expiresAt,
      ttlSecs: 600,
      sessionId: "task-42",
      toolCallId: "call-7",
      correlationId: null,
      parametersSchema: script.parametersSchema,
    });
  });

  it("passes values as data, never as code", async () => {
    const script = await store.materialize(
      "function main(text: string, nested: { list: string[] }) { return [text, nested.list]; }",
      { dccType: "maya" },
    );
    const hostile = `"); throw new Error("injected"); ("\u2028\`\${1}\`</script>`;
    const result = await executeParams(store, {
      filePath: script.filePath,
      params: { text: hostile, nested: { list: ["__proto__", "\\"] } },
    });
    expect(result).toMatchObject({ success: true, output: [hostile, ["__proto__", "\\"]] });
  });

  it("keeps error lines of the file and failures without script context", async () => {
    const script = await store.materialize(
      "function main(n: number) {\n  if (n > 1) {\n    throw new Error('too big');\n  }\n  return n;\n}\n",
      { dccType: "maya" },
    );
    const result = await executeParams(store, { filePath: script.filePath, params: { n: 5 } });
    expect(result).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect((result as { error: string }).error).toContain("too big");
    expect((result as { error: string }).error).toContain(":3");
    expect("context" in result).toBe(false);
  });
});

describe("prepareScriptCall", () => {
  it("lists every failing field", async () => {
    const script = await store.materialize(
      "function main(scale: number, copies: integer, axis: 'x' | 'y', point: { x: number }) {}",
      { dccType: "maya" },
    );
    const error = await prepareScriptCall(store, {
      filePath: script.filePath,
      params: { scale: "big", copies: 1.5, axis: "z", point: { x: "1", y: 2 }, extra: true },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidParametersError);
    const issues = (error as InvalidParametersError).issues;
    expect(issues).toEqual([
      { path: "extra", message: "is not a known parameter" },
      { path: "scale", message: "must be number" },
      { path: "copies", message: "must be integer" },
      { path: "axis", message: 'must be one of ["x","y"]' },
      { path: "point/y", message: "is not a known parameter" },
      { path: "point/x", message: "must be number" },
    ]);
    for (const field of ["extra", "scale", "copies", "axis", "point/y", "point/x"]) {
      expect((error as Error).message).toContain(`${field}:`);
    }
    expect((error as InvalidParametersError).code).toBe("INVALID_PARAMETERS");
  });

  it("requires parameters without defaults, nullable or not", async () => {
    const script = await store.materialize(
      "function main(a: number | null, b: string, c: number = 1, d?: number) {}",
      { dccType: "maya" },
    );
    const error = (await prepareScriptCall(store, {
      filePath: script.filePath,
      params: {},
    }).catch((caught: unknown) => caught)) as InvalidParametersError;
    expect(error.issues).toEqual([
      { path: "a", message: "is required" },
      { path: "b", message: "is required" },
    ]);
    await expect(
      prepareScriptCall(store, { filePath: script.filePath, params: { a: null, b: "" } }),
    ).resolves.toMatchObject({ params: { a: null, b: "" } });
  });

  it("accepts only an object of named parameters", async () => {
    const script = await store.materialize("function main() { return 1 }", { dccType: "maya" });
    for (const params of [[1], "x", 3, null]) {
      await expect(prepareScriptCall(store, { filePath: script.filePath, params })).rejects.toThrow(
        "params must be an object of named parameters",
      );
    }
    await expect(
      prepareScriptCall(store, { filePath: script.filePath, params: { n: 1n } }),
    ).rejects.toThrow("JSON-serialisable");
    await expect(
      prepareScriptCall(store, { filePath: script.filePath, sha256: 42 as unknown as string }),
    ).rejects.toThrow("sha256 must be a hex string");
    await expect(prepareScriptCall(store, { filePath: script.filePath })).resolves.toMatchObject({
      params: {},
    });
  });

  it("refuses scripts that are not entry points", async () => {
    for (const code of ["return 1", "function main() {}\nreturn 2", "function main() {}\nmain()"]) {
      const file = path.join(root, `plain-${code.length}.ts`);
      await writeFile(file, code);
      await expect(prepareScriptCall(store, { filePath: file, params: {} })).rejects.toThrow(
        NoMainFunctionError,
      );
    }
  });

  it("re-derives the schema from the current body and checks the given sha256", async () => {
    const file = path.join(root, "hand.ts");
    await writeFile(file, "function main(n: number) { return n }");
    await expect(prepareScriptCall(store, { filePath: file, params: { n: "1" } })).rejects.toThrow(
      InvalidParametersError,
    );
    await expect(
      prepareScriptCall(store, { filePath: file, params: { n: 1 }, sha256: "ab".repeat(32) }),
    ).rejects.toThrow(ScriptHashMismatchError);
  });
});
