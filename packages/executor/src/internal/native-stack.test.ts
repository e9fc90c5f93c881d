import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { DccApiExecutor } from "../dcc-api-executor.ts";
import { maxStackBytes } from "../executor-limits.ts";
import { SandboxPool } from "../sandbox-pool.ts";
import { deepRecursionScripts } from "./__fixtures__/deep-recursion-scripts.ts";
import { guestStackCap, nativeBytesPerGuestByte, workerStackSizeMb } from "./native-stack.ts";

describe("native stack sizing", () => {
  it("gives sandbox workers enough native stack for the largest QuickJS stack limit", () => {
    const mb = workerStackSizeMb(maxStackBytes);
    expect(guestStackCap(mb * 1024 * 1024 - 192 * 1024)).toBeGreaterThanOrEqual(maxStackBytes);
    expect(mb * 1024 * 1024).toBeGreaterThanOrEqual(maxStackBytes * nativeBytesPerGuestByte);
  });

  it("caps the QuickJS stack far below a main thread's native stack", () => {
    expect(guestStackCap(984 * 1024)).toBe(19 * 1024);
    expect(guestStackCap(0)).toBe(0);
  });
});

describe("deep recursion in sandbox workers at the largest stack limit", () => {
  it.each(deepRecursionScripts)(
    "%s ends in the guest's stack limit",
    async (_name, code) => {
      const pool = new SandboxPool({ size: 1 });
      const executor = new DccApiExecutor("maya", {
        pool,
        limits: { stackBytes: maxStackBytes },
      });
      try {
        const result = await executor.execute(code, { timeoutSecs: 60 });
        expect(result).toMatchObject({
          success: false,
          errorCode: "LIMIT_EXCEEDED",
          limit: "stack",
        });
        expect(result.success ? "" : result.error).toContain("stack limit of 256 KiB reached");
        expect(await executor.execute("return 1")).toMatchObject({ success: true, output: 1 });
      } finally {
        await pool.close();
      }
    },
    120_000,
  );
});

describe("deep recursion with the debug build in a worker sized like the pool's", () => {
  it("frees every runtime on every path at the largest stack limit", async () => {
    const results = await runDebugWorker(maxStackBytes);
    expect(results.map(({ name }) => name)).toEqual(deepRecursionScripts.map(([name]) => name));
    for (const { name, outcome, leak } of results) {
      expect({ name, leak }).toEqual({ name, leak: null });
      expect({ name, outcome }).toMatchObject({
        name,
        outcome: { status: "error", errorCode: "LIMIT_EXCEEDED", limit: "stack", poisoned: false },
      });
    }
  }, 300_000);
});

interface DebugResult {
  name: string;
  outcome: unknown;
  leak: string | null;
}

function runDebugWorker(stackBytes: number): Promise<DebugResult[]> {
  const require = createRequire(import.meta.url);
  const tsx = new URL("dist/esm/api/index.mjs", pathToFileURL(require.resolve("tsx/package.json")));
  const fixture = new URL("./__fixtures__/debug-stack-worker.ts", import.meta.url);
  const source = `import(${JSON.stringify(tsx.href)}).then((api) => { api.register(); return import(${JSON.stringify(fixture.href)}); });`;
  const worker = new Worker(source, {
    eval: true,
    execArgv: [],
    workerData: { stackBytes },
    resourceLimits: { stackSizeMb: workerStackSizeMb(maxStackBytes) },
    stderr: true,
  });
  return new Promise<DebugResult[]>((resolve, reject) => {
    worker.once("message", (results: DebugResult[]) => resolve(results));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`debug worker exited (${code})`)));
  }).finally(() => worker.terminate());
}
