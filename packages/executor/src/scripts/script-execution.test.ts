import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import type { ExecuteFailure, ExecuteSuccess } from "../execute-result.ts";
import { SandboxPool } from "../sandbox-pool.ts";
import { ToolDispatcher } from "../tool-dispatcher.ts";
import { ToolRegistry } from "../tool-registry.ts";
import { ScriptStore } from "./script-store.ts";

// End to end through DccApiExecutor: real worker pool, real QuickJS, real dispatcher, real files.
const created: string[] = [];
const registry = new ToolRegistry().registerAll([
  {
    name: "polySphere",
    handler: (args) => {
      const name = (args as { name: string }).name;
      created.push(name);
      return [name, `${name}Shape`];
    },
  },
]);
const pool = new SandboxPool();
let root: string;
let executor: DccApiExecutor;
let bare: DccApiExecutor;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "dcc-exec-scripts-"));
  const dispatcher = new ToolDispatcher(registry);
  executor = new DccApiExecutor("maya", { dispatcher, pool, scripts: new ScriptStore({ root }) });
  bare = new DccApiExecutor("maya", { dispatcher, pool });
});

afterAll(async () => {
  await executor.close();
  await bare.close();
  await pool.close();
  await rm(root, { recursive: true, force: true });
});

const spheres = `type integer = number;
/** Creates spheres in a row. */
function main(count: integer, prefix: string = "ball", spacing: number | null = null) {
  const names = [];
  for (let i = 0; i < count; i++) names.push(dispatch("polySphere", { name: prefix + i })[0]);
  return { names, spacing };
}
`;

function success(result: unknown): ExecuteSuccess {
  expect(result).toMatchObject({ success: true });
  return result as ExecuteSuccess;
}

function failure(result: unknown): ExecuteFailure {
  expect(result).toMatchObject({ success: false });
  return result as ExecuteFailure;
}

describe("DccApiExecutor with materialized scripts", () => {
  it("materializes a typed entry point on execute instead of running it", async () => {
    created.length = 0;
    const result = success(
      await executor.execute(spheres, { materialize: { sessionId: "task-1", ttlSecs: 3600 } }),
    );
    expect(created).toEqual([]);
    const output = result.output as Record<string, unknown>;
    expect(output).toMatchObject({ materialized: true });
    expect(String(output["filePath"]).startsWith(path.join(root, "maya", "temp"))).toBe(true);
    expect(output["parametersSchema"]).toMatchObject({
      properties: { count: { type: "integer" }, prefix: { default: "ball" } },
      required: ["count"],
    });
    expect(result.context["materialized_script"]).toMatchObject({
      source: "materialized",
      filePath: output["filePath"],
      sessionId: "task-1",
      ttlSecs: 3600,
      reused: false,
    });
    const again = success(await executor.execute(spheres));
    expect((again.output as Record<string, unknown>)["filePath"]).not.toBeUndefined();
  });

  it("reuses the stored file when the same entry point is sent again", async () => {
    const first = success(await executor.execute(spheres, { materialize: { sessionId: "r" } }));
    const second = success(await executor.execute(spheres, { materialize: { sessionId: "r" } }));
    expect(second.context["materialized_script"]).toMatchObject({ reused: true });
    expect((second.output as { filePath: string }).filePath).toBe(
      (first.output as { filePath: string }).filePath,
    );
  });

  it("runs main with params through executeParams, in the sandbox with dispatch", async () => {
    const stored = success(await executor.execute(spheres, { materialize: { sessionId: "s" } }));
    const { filePath, sha256 } = stored.output as { filePath: string; sha256: string };
    created.length = 0;
    const result = success(
      await executor.executeParams({ filePath, params: { count: 2, prefix: "p" }, sha256 }),
    );
    expect(result.message).toBe("Script executed successfully on maya.");
    expect(result.output).toEqual({ names: ["p0", "p1"], spacing: null });
    expect(result.stats.dispatchCalls).toBe(2);
    expect(created).toEqual(["p0", "p1"]);
    expect(result.context["materialized_script"]).toMatchObject({
      source: "file_path",
      filePath,
      sha256,
      reused: true,
      parametersSchema: (stored.output as { parametersSchema: unknown }).parametersSchema,
    });
    const reusedRun = success(await executor.executeParams({ filePath, params: { count: 1 } }));
    expect(reusedRun.output).toEqual({ names: ["ball0"], spacing: null });
  });

  it("reports invalid params as invalid input listing every field, without running", async () => {
    const stored = success(await executor.execute(spheres));
    const { filePath } = stored.output as { filePath: string };
    created.length = 0;
    const result = failure(
      await executor.executeParams({
        filePath,
        params: { count: 1.5, prefix: 3, spacing: "wide", color: "red" },
      }),
    );
    expect(result).toMatchObject({
      message: "Script parameters are invalid on maya.",
      errorCode: "INVALID_INPUT",
      completion: "not_started",
    });
    for (const field of ["count", "prefix", "spacing", "color"]) {
      expect(result.error).toContain(`${field}:`);
    }
    expect(created).toEqual([]);
  });

  it("refuses paths outside the root and tampered files as invalid input", async () => {
    const outside = failure(await executor.executeParams({ filePath: "/etc/passwd", params: {} }));
    expect(outside.error).toContain("outside the scripts root");
    const stored = success(await executor.execute(spheres));
    const { filePath, sha256 } = stored.output as { filePath: string; sha256: string };
    await writeFile(filePath, spheres.replace("polySphere", "delete"));
    const tampered = failure(
      await executor.executeParams({ filePath, params: { count: 1 }, sha256 }),
    );
    expect(tampered.errorCode).toBe("INVALID_INPUT");
    expect(tampered.error).toContain("does not match");
  });

  it("applies the execute timeout to main", async () => {
    const stored = success(await executor.execute("function main(n: number) { for (;;) {} }"));
    const { filePath } = stored.output as { filePath: string };
    const result = failure(
      await executor.executeParams({ filePath, params: { n: 1 }, timeoutSecs: 1 }),
    );
    expect(result).toMatchObject({ errorCode: "TIMEOUT", message: "Script timed out on maya." });
  });

  it("rejects an entry point with an unsupported parameter type on execute", async () => {
    const result = failure(await executor.execute("function main(when: Date) {}"));
    expect(result.errorCode).toBe("INVALID_INPUT");
    expect(result.error).toContain("Parameter 'when' of main");
  });

  it("still runs plain scripts, including ones that call their own main", async () => {
    const files = await readdir(root, { recursive: true });
    expect(success(await executor.execute("return 1 + 1")).output).toBe(2);
    const self = success(
      await executor.execute("function main(n: number) { return n * 2 }\nreturn main(21);"),
    );
    expect(self.output).toBe(42);
    expect(await readdir(root, { recursive: true })).toEqual(files);
  });

  it("without a scripts store, runs main scripts inline and refuses executeParams", async () => {
    expect(success(await bare.execute(spheres)).output).toBeNull();
    const result = failure(await bare.executeParams({ filePath: "x.ts", params: {} }));
    expect(result.error).toBe("Materialized scripts are not configured on this executor");
  });

  it("takes the scripts root as a string", async () => {
    const byRoot = new DccApiExecutor("maya", { pool, scripts: root });
    expect(byRoot.scripts?.root).toBe(root);
    const stored = success(await byRoot.execute("function main(a: string) { return a }"));
    const { filePath } = stored.output as { filePath: string };
    expect(success(await byRoot.executeParams({ filePath, params: { a: "x" } })).output).toBe("x");
    await byRoot.close();
  });
});
