import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DccApiExecutor, ToolDispatcher, ToolRegistry } from "@dcc/executor";
import { revisions } from "@dcc/mcp-test-clients";
import { McpServer } from "@modelcontextprotocol/server";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness } from "./__fixtures__/http-harness.ts";
import { createTestExecutor } from "./__fixtures__/test-executor.ts";
import type { BridgeExecutor } from "./bridge-executor.ts";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";
import { registerDccApiExecutor } from "./register-dcc-api-executor.ts";

type ToolResult = {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(revisions)("registerDccApiExecutor (%s)", (revision) => {
  it("lists exactly the two tools with schemas and annotations", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    const search = tools.find((tool) => tool.name === "dcc_search");
    const execute = tools.find((tool) => tool.name === "dcc_execute");
    expect(search?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(execute?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(search?.inputSchema.required).toEqual(["query"]);
    expect(search?.inputSchema.properties?.["limit"]).toMatchObject({
      minimum: 1,
      maximum: 50,
      default: 10,
    });
    expect(execute?.inputSchema.properties?.["timeout_secs"]).toMatchObject({
      minimum: 1,
      maximum: 300,
      default: 30,
    });
    expect(execute?.outputSchema?.required).toEqual(["success", "message"]);
    // The whole tools/list payload (schemas included) stays near 1K tokens.
    expect(new Tiktoken(o200k).encode(JSON.stringify(tools)).length).toBeLessThanOrEqual(1000);
  });

  it("returns structuredContent and the same JSON as text", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const result = (await client.callTool({
      name: "dcc_search",
      arguments: { query: "sphere" },
    })) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.["success"]).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(result.structuredContent);
    const hits = (result.structuredContent?.["results"] ?? []) as { name: string }[];
    expect(hits[0]?.name).toBe("polySphere");

    const run = (await client.callTool({
      name: "dcc_execute",
      arguments: {
        code: 'const made = await dispatch("polySphere", { name: "ball" });\nreturn { made };',
      },
    })) as ToolResult;
    expect(run.isError).toBeFalsy();
    expect(run.structuredContent).toMatchObject({
      success: true,
      output: { made: ["ball", "ballShape"] },
    });
    expect(JSON.parse(run.content[0]?.text ?? "")).toEqual(run.structuredContent);
  });

  it("gives every search result a name, signature and description over the real tool", async () => {
    // A real executor whose catalog comes from commands registered without text, beside an
    // executor of another implementation whose results lack the fields or hold null.
    const registry = new ToolRegistry().registerAll([
      { name: "bareSphere", handler: () => 1 },
      { name: "describedSphere", description: "A sphere with words", handler: () => 2 },
    ]);
    const real = new DccApiExecutor("maya", { dispatcher: new ToolDispatcher(registry) });
    const foreign: BridgeExecutor = {
      dccName: "other",
      search: () => ({
        success: true,
        message: "Found 3 command(s).",
        results: [{ name: "a" }, { signature: null, description: "only text" }, { extra: 1 }],
      }),
      execute: async () => ({ success: true, message: "ran" }),
    };
    try {
      harness = await startHttpHarness({ executors: [real, foreign] }, { revision });
      const client = await harness.connect();
      const search = async (name: string): Promise<unknown[]> => {
        const result = (await client.callTool({
          name,
          arguments: { query: "sphere" },
        })) as ToolResult;
        expect(result.isError).toBeFalsy();
        // The text content is what most clients read; it must carry the same keys.
        expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(result.structuredContent);
        return (result.structuredContent?.["results"] ?? []) as unknown[];
      };
      const fromCatalog = await search("maya_search");
      expect(fromCatalog).toHaveLength(2);
      expect(fromCatalog).toEqual(
        expect.arrayContaining([
          { name: "bareSphere", signature: "", description: "" },
          { name: "describedSphere", signature: "", description: "A sphere with words" },
        ]),
      );
      expect(await search("other_search")).toEqual([
        { name: "a", signature: "", description: "" },
        { name: "", signature: "", description: "only text" },
        { name: "", signature: "", description: "", extra: 1 },
      ]);
    } finally {
      await real.close();
    }
  });

  it("marks failed scripts with isError and keeps the envelope", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const result = (await client.callTool({
      name: "dcc_execute",
      arguments: { code: 'await dispatch("fail", {});' },
    })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      success: false,
      message: "Script failed on maya.",
    });
  });

  it("explains invalid arguments clearly", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
      (await client.callTool({ name, arguments: args })) as ToolResult;

    const limit = await call("dcc_search", { query: "x", limit: 0 });
    expect(limit.isError).toBe(true);
    expect(limit.content[0]?.text).toContain("limit must be between 1 and 50");

    const timeout = await call("dcc_execute", { code: "return 1", timeout_secs: 301 });
    expect(timeout.content[0]?.text).toContain("timeout_secs must be between 1 and 300");

    const wrongType = await call("dcc_execute", { code: 42 });
    expect(wrongType.content[0]?.text).toContain("code must be a string");

    const missing = await call("dcc_execute", {});
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({
      success: false,
      errorCode: "INVALID_INPUT",
      error: "Missing required 'code' string (or file_path with params)",
    });

    const both = await call("dcc_execute", { code: "return 1", file_path: "/tmp/x.ts" });
    expect(both.structuredContent?.["error"]).toBe("Pass either code or file_path, not both");

    const jobWithoutAction = await call("dcc_execute", { job_id: "abc" });
    expect(jobWithoutAction.structuredContent?.["error"]).toContain("job_id needs job_action");
  });

  it("stores a typed main and runs it again with file_path and params", async () => {
    const root = await mkdtemp(join(tmpdir(), "bridge-scripts-"));
    try {
      const events: DccToolCallEvent[] = [];
      harness = await startHttpHarness(
        { onToolCall: (event) => events.push(event) },
        { scriptsRoot: root, revision },
      );
      const client = await harness.connect();
      const stored = (await client.callTool({
        name: "dcc_execute",
        arguments: {
          code: "function main(count: number, name: string = 'ball') {\n  return dispatch('polySphere', { name: name + count });\n}\n",
        },
      })) as ToolResult;
      const output = stored.structuredContent?.["output"] as {
        filePath: string;
        sha256: string;
        parametersSchema: unknown;
      };
      expect(output.filePath.startsWith(root)).toBe(true);
      expect(output.parametersSchema).toMatchObject({ required: ["count"] });
      const run = (await client.callTool({
        name: "dcc_execute",
        arguments: { file_path: output.filePath, params: { count: 3 }, sha256: output.sha256 },
      })) as ToolResult;
      expect(run.structuredContent).toMatchObject({
        success: true,
        output: ["ball3", "ball3Shape"],
      });
      // Without a sha256 of its own, the call is recorded with the hash of the file that ran.
      await client.callTool({
        name: "dcc_execute",
        arguments: { file_path: output.filePath, params: { count: 4 } },
      });
      expect(events.at(-1)?.script).toEqual({
        filePath: output.filePath,
        params: { count: 4 },
        sha256: output.sha256,
      });
      expect(events.at(-1)?.result["stats"]).toMatchObject({ commands: { polySphere: 1 } });
      const invalid = (await client.callTool({
        name: "dcc_execute",
        arguments: { file_path: output.filePath, params: { count: "three" } },
      })) as ToolResult;
      expect(invalid.isError).toBe(true);
      expect(invalid.structuredContent).toMatchObject({
        success: false,
        errorCode: "INVALID_INPUT",
      });
    } finally {
      await harness?.close();
      harness = undefined;
      await rm(root, { recursive: true, force: true });
    }
  });

  it("answers an unknown tool with an invalid-params error", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(
      /Tool nope not found/,
    );
  });

  it("never trusts a client-supplied _meta.dcc.jobId", async () => {
    harness = await startHttpHarness({}, { revision });
    const client = await harness.connect();
    const result = (await client.callTool({
      name: "dcc_execute",
      arguments: { code: 'return await dispatch("whoami", {});' },
      _meta: { dcc: { jobId: "spoofed-job" } },
    })) as ToolResult;
    const seen = result.structuredContent?.["output"];
    expect(typeof seen).toBe("string");
    expect(seen).not.toBe("spoofed-job");
    expect(seen).toMatch(/^[0-9a-f-]{36}$/);
    expect(harness.test.journal.jobIds).toEqual([seen]);
  });

  it("tells onToolCall who called, what ran, its job id and the async job's end", async () => {
    const events: DccToolCallEvent[] = [];
    harness = await startHttpHarness({ onToolCall: (event) => events.push(event) }, { revision });
    const client = await harness.connect();
    const code = 'dispatch("tick"); dispatch("tick"); return dispatch("whoami");';
    const sync = (await client.callTool({
      name: "dcc_execute",
      arguments: { code },
    })) as ToolResult;
    const synced = events.at(-1);
    expect(synced).toMatchObject({
      tool: "dcc_execute",
      phase: "call",
      async: false,
      clientName: "test-client",
      script: { code, sha256: createHash("sha256").update(code).digest("hex") },
    });
    // The server-owned id the host saw is the event's job id.
    expect(synced?.jobId).toBe(sync.structuredContent?.["output"]);
    expect(synced?.result["stats"]).toMatchObject({
      dispatchCalls: 3,
      commands: { tick: 2, whoami: 1 },
    });

    await client.callTool({ name: "dcc_execute", arguments: { code: "throw new Error('no')" } });
    expect(events.at(-1)?.result).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(events.at(-1)?.jobId).toEqual(expect.any(String));

    const job = (await client.callTool({
      name: "dcc_execute",
      arguments: { code: 'return dispatch("tick")', async: true },
    })) as ToolResult;
    const jobId = job.structuredContent?.["job_id"];
    expect(typeof jobId).toBe("string");
    const ended = await waitForEvent(events, (event) => event.phase === "job");
    expect(ended).toMatchObject({
      phase: "job",
      async: true,
      jobId,
      result: { success: true, stats: { commands: { tick: 1 } } },
      script: { code: 'return dispatch("tick")' },
    });
    const submitted = events.find((event) => event.async === true && event.phase === "call");
    expect(submitted?.jobId).toBe(jobId);

    await client.callTool({
      name: "dcc_execute",
      arguments: { job_id: jobId, job_action: "result" },
    });
    expect(events.at(-1)).toMatchObject({ jobId, jobAction: "result" });
    expect(events.at(-1)?.script).toBeUndefined();
  });

  it("hosts several executors under distinct names", async () => {
    const maya = createTestExecutor("maya");
    const blender = createTestExecutor("blender");
    // The real DccApiExecutor instances, unwrapped: they satisfy BridgeExecutor structurally.
    harness = await startHttpHarness({ executors: [maya.real, blender.real] }, { revision });
    const client = await harness.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "blender_execute",
      "blender_search",
      "maya_execute",
      "maya_search",
    ]);
    expect(tools.find((tool) => tool.name === "maya_execute")?.description).toContain(
      "maya_search",
    );
    await client.callTool({
      name: "blender_execute",
      arguments: { code: 'await dispatch("tick", {});' },
    });
    expect(blender.journal.ticks).toBe(1);
    expect(maya.journal.ticks).toBe(0);
    await Promise.all([maya.close(), blender.close()]);
  });

  it("refuses clashing or invalid tool names", async () => {
    const server = new McpServer({ name: "t", version: "1" });
    const test = createTestExecutor();
    const { executor } = test;
    expect(() =>
      registerDccApiExecutor(server, executor, { searchToolName: "x", executeToolName: "x" }),
    ).toThrow(McpBridgeError);
    expect(() => registerDccApiExecutor(server, executor, { searchToolName: "has space" })).toThrow(
      /Invalid tool name/,
    );
    registerDccApiExecutor(server, executor);
    expect(() => registerDccApiExecutor(server, executor)).toThrow(McpBridgeError);
    await test.close();
  });
});

describe.each(revisions)("tool schemas follow the executor's limits (%s)", (revision) => {
  type Schema = { properties?: Record<string, Record<string, unknown>> };
  const property = (schema: unknown, name: string): Record<string, unknown> =>
    (schema as Schema).properties?.[name] ?? {};

  it("advertises and applies a real executor's non-default limits, one source for both", async () => {
    const registry = new ToolRegistry().registerAll([{ name: "noop", handler: () => null }]);
    const real = new DccApiExecutor("maya", {
      dispatcher: new ToolDispatcher(registry),
      limits: { timeoutSecs: 1, maxTimeoutSecs: 20, maxCodeChars: 5000 },
    });
    try {
      harness = await startHttpHarness({ executors: [real] }, { revision });
      const client = await harness.connect();
      const { tools } = await client.listTools();
      const execute = tools.find((tool) => tool.name === "dcc_execute");
      expect(property(execute?.inputSchema, "timeout_secs")).toMatchObject({
        minimum: 1,
        maximum: 20,
        default: 1,
      });
      expect(property(execute?.inputSchema, "code")).toMatchObject({ maxLength: 5000 });
      const search = tools.find((tool) => tool.name === "dcc_search");
      expect(property(search?.inputSchema, "limit")).toMatchObject({
        minimum: 1,
        maximum: real.searchLimits.maxLimit,
        default: real.searchLimits.defaultLimit,
      });

      const call = async (args: Record<string, unknown>): Promise<ToolResult> =>
        (await client.callTool({ name: "dcc_execute", arguments: args })) as ToolResult;
      // No timeout_secs: the executor's own default (1 s) stops the loop, not a bridge default.
      const spin = await call({ code: "while (true) {}" });
      expect(spin.structuredContent).toMatchObject({
        success: false,
        errorCode: "TIMEOUT",
        error: "Script exceeded the 1s timeout",
      });
      // The schema refuses exactly what the executor would: above 20 s, above 5000 characters.
      const over = await call({ code: "return 1", timeout_secs: 21 });
      expect(over.isError).toBe(true);
      expect(over.content[0]?.text).toContain("timeout_secs must be between 1 and 20");
      expect(await call({ code: "return 1", timeout_secs: 20 })).toMatchObject({
        structuredContent: { success: true, output: 1 },
      });
      const longest = `return 1;${" ".repeat(5000 - 9)}`;
      expect(longest).toHaveLength(5000);
      expect(await call({ code: longest })).toMatchObject({
        structuredContent: { success: true, output: 1 },
      });
      const tooLong = await call({ code: `${longest} ` });
      expect(tooLong.isError).toBe(true);
      expect(tooLong.content[0]?.text).toContain("code must be at most 5000 characters");
      expect(tooLong.structuredContent).toBeUndefined();
    } finally {
      await real.close();
    }
  });

  it("leaves the rules to an executor that states no limits, and follows one that does", async () => {
    const seen: { timeoutSecs: unknown[]; limit: unknown[] } = { timeoutSecs: [], limit: [] };
    const plain: BridgeExecutor = {
      dccName: "plain",
      search: (_query, options) => {
        seen.limit.push(options?.limit);
        return { success: true, message: "none", results: [] };
      },
      execute: async (_code, options) => {
        seen.timeoutSecs.push(options?.timeoutSecs);
        return { success: true, message: "ran" };
      },
    };
    const stated: BridgeExecutor = {
      ...plain,
      dccName: "stated",
      limits: { timeoutSecs: 4, maxTimeoutSecs: 9, maxCodeChars: 64 },
      searchLimits: { defaultLimit: 3, maxLimit: 5 },
    };
    harness = await startHttpHarness({ executors: [plain, stated] }, { revision });
    const client = await harness.connect();
    const { tools } = await client.listTools();
    const schema = (name: string): unknown => tools.find((tool) => tool.name === name)?.inputSchema;
    const plainTimeout = property(schema("plain_execute"), "timeout_secs");
    // zod states an integer's safe range as its maximum when nothing narrower is set.
    const unbounded = (value: unknown): unknown => value ?? Number.MAX_SAFE_INTEGER;
    expect(plainTimeout).toMatchObject({ minimum: 1 });
    expect(unbounded(plainTimeout["maximum"])).toBe(Number.MAX_SAFE_INTEGER);
    expect(plainTimeout).not.toHaveProperty("default");
    expect(property(schema("plain_execute"), "code")).not.toHaveProperty("maxLength");
    const plainLimit = property(schema("plain_search"), "limit");
    expect(unbounded(plainLimit["maximum"])).toBe(Number.MAX_SAFE_INTEGER);
    expect(plainLimit).not.toHaveProperty("default");
    expect(property(schema("stated_execute"), "timeout_secs")).toMatchObject({
      maximum: 9,
      default: 4,
    });
    expect(property(schema("stated_execute"), "code")).toMatchObject({ maxLength: 64 });
    expect(property(schema("stated_search"), "limit")).toMatchObject({ maximum: 5, default: 3 });

    await client.callTool({ name: "plain_execute", arguments: { code: "return 1" } });
    await client.callTool({ name: "stated_execute", arguments: { code: "return 1" } });
    await client.callTool({ name: "plain_search", arguments: { query: "x" } });
    await client.callTool({ name: "stated_search", arguments: { query: "x" } });
    expect(seen).toEqual({ timeoutSecs: [undefined, 4], limit: [undefined, 3] });
    const refused = (await client.callTool({
      name: "stated_search",
      arguments: { query: "x", limit: 6 },
    })) as ToolResult;
    expect(refused.content[0]?.text).toContain("limit must be between 1 and 5");
  });
});

/** Waits (bounded, as a hang guard) for an event matching `predicate`. */
async function waitForEvent(
  events: readonly DccToolCallEvent[],
  predicate: (event: DccToolCallEvent) => boolean,
): Promise<DccToolCallEvent | undefined> {
  const deadline = Date.now() + 60_000;
  while (!events.some(predicate) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return events.find(predicate);
}
