// Zod shapes of the two tools. Messages name the argument and the rule, because the SDK forwards
// them verbatim to the agent ("Input validation error: Invalid arguments for tool …").
import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { BridgeExecutorLimits, BridgeSearchLimits } from "../bridge-executor.ts";

/**
 * Input of the search tool. The `limit` range is the executor's (`searchLimits`); an executor
 * that states none gets a `limit` with no default or maximum, and chooses for itself.
 */
function searchInputShape(limits: BridgeSearchLimits | undefined) {
  const limit = z
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(
      1,
      limits === undefined ? "limit must be at least 1" : rangeText("limit", limits.maxLimit),
    );
  return {
    query: z
      .string({ error: "query must be a string" })
      .min(1, "query must not be empty")
      .max(500, "query must be at most 500 characters")
      .describe("Words to look for in command names, flags and descriptions."),
    limit:
      limits === undefined
        ? limit.optional().describe("Most results.")
        : limit
            .max(limits.maxLimit, rangeText("limit", limits.maxLimit))
            .default(limits.defaultLimit)
            .describe(`Most results, 1-${limits.maxLimit} (default ${limits.defaultLimit}).`),
  };
}

/**
 * Input of the execute tool: a script, a materialized script with params, or a job action. The
 * `timeout_secs` default and maximum and the `code` length are the executor's own `limits`, so
 * the schema refuses exactly what the executor would and a call without `timeout_secs` gets the
 * executor's default; an executor that states no limits gets neither, and decides for itself.
 */
function executeInputShape(limits: BridgeExecutorLimits | undefined) {
  const code = z.string({ error: "code must be a string" });
  const timeout = z
    .number({ error: "timeout_secs must be a number of seconds" })
    .int("timeout_secs must be a whole number of seconds")
    .min(
      1,
      limits === undefined
        ? "timeout_secs must be at least 1"
        : rangeText("timeout_secs", limits.maxTimeoutSecs),
    );
  return {
    code: (limits === undefined
      ? code
      : code.max(limits.maxCodeChars, `code must be at most ${limits.maxCodeChars} characters`)
    )
      .optional()
      .describe("Script body (JavaScript or TypeScript)."),
    file_path: z
      .string({ error: "file_path must be a string" })
      .optional()
      .describe("Instead of code: a materialized script whose main(params) runs."),
    params: z
      .record(z.string(), z.unknown(), { error: "params must be an object" })
      .optional()
      .describe("Arguments for file_path's main()."),
    sha256: z
      .string({ error: "sha256 must be a string" })
      .regex(/^[0-9a-fA-F]{64}$/, "sha256 must be 64 hex characters")
      .optional()
      .describe("Expected SHA-256 of file_path."),
    timeout_secs:
      limits === undefined
        ? timeout.optional().describe("Time limit in seconds.")
        : timeout
            .max(limits.maxTimeoutSecs, rangeText("timeout_secs", limits.maxTimeoutSecs))
            .default(limits.timeoutSecs)
            .describe("Time limit in seconds."),
    keep_partial: z
      .boolean({ error: "keep_partial must be true or false" })
      .optional()
      .describe("Keep a failed script's changes (default: undone)."),
    async: z
      .boolean({ error: "async must be true or false" })
      .optional()
      .describe("Run as a background job; returns job_id at once."),
    job_id: z.string({ error: "job_id must be a string" }).optional().describe("A job to act on."),
    job_action: z
      .enum(["status", "result", "cancel"], {
        error: 'job_action must be "status", "result" or "cancel"',
      })
      .optional()
      .describe("What to do with job_id."),
  };
}

function rangeText(name: string, max: number): string {
  return `${name} must be between 1 and ${max}`;
}

/**
 * The schema with its JSON Schema conversions remembered. The SDK converts a tool's schemas
 * (through the Standard Schema `jsonSchema` interface) once per McpServer, which on 2026-07-28
 * is once per request; the conversion costs more than the rest of a search call.
 */
function withJsonSchemaMemo<T extends z.ZodType>(schema: T): T {
  const standard = schema["~standard"];
  const convert = standard.jsonSchema;
  const memo = new Map<string, Record<string, unknown>>();
  const remembered =
    (io: "input" | "output") =>
    (options: Parameters<typeof convert.input>[0]): Record<string, unknown> => {
      const key = `${io} ${options.target}`;
      let json = memo.get(key);
      if (json === undefined) {
        // `$schema` goes: MCP's default dialect is the one it names (2020-12), and every token
        // of tools/list is paid for in the agent's context.
        const { $schema: _dialect, ...rest } = convert[io](options);
        json = rest;
        memo.set(key, json);
      }
      return json;
    };
  return {
    "~standard": {
      ...standard,
      jsonSchema: { input: remembered("input"), output: remembered("output") },
    },
  } as unknown as T;
}

/** Output envelope shared by both tools: `success` and `message` always, other fields pass through. */
const envelopeShape = withJsonSchemaMemo(
  z.looseObject({
    success: z.boolean(),
    message: z.string(),
  }),
);

/** Parsed execute arguments (kept in step with `executeInputShape`; the compiler checks it). */
export interface ExecuteArguments {
  code?: string | undefined;
  file_path?: string | undefined;
  params?: Record<string, unknown> | undefined;
  sha256?: string | undefined;
  /** Absent only when the executor states no limits (then it applies its own default). */
  timeout_secs?: number | undefined;
  keep_partial?: boolean | undefined;
  async?: boolean | undefined;
  job_id?: string | undefined;
  job_action?: "status" | "result" | "cancel" | undefined;
}

/** Parsed search arguments. */
export interface SearchArguments {
  query: string;
  /** Absent only when the executor states no search limits. */
  limit?: number | undefined;
}

/** The SDK's per-request context as the tool handlers see it. */
export type ToolExtra = ServerContext;

/** Display fields of one tool. */
export interface ToolText {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

// Building a zod schema costs far more than registering it, and a 2026-07-28 request gets an
// McpServer of its own: the schemas are built once per distinct set of limits and shared (zod
// schemas are immutable).
const searchSchema = (limits: BridgeSearchLimits | undefined) =>
  withJsonSchemaMemo(z.object(searchInputShape(limits)));
const executeSchema = (limits: BridgeExecutorLimits | undefined) =>
  withJsonSchemaMemo(z.object(executeInputShape(limits)));
const searchSchemas = new Map<string, ReturnType<typeof searchSchema>>();
const executeSchemas = new Map<string, ReturnType<typeof executeSchema>>();

function cached<T>(cache: Map<string, T>, limits: object | undefined, build: () => T): T {
  const key = JSON.stringify(limits ?? null);
  let schema = cache.get(key);
  if (schema === undefined) {
    schema = build();
    // Bounded: an executor's limits are fixed, so a process sees a handful of distinct sets.
    if (cache.size >= 64) cache.clear();
    cache.set(key, schema);
  }
  return schema;
}

/** Registers the search tool with its schemas, built from the executor's `searchLimits`. */
export function registerSearchTool(
  server: McpServer,
  text: ToolText,
  limits: BridgeSearchLimits | undefined,
  handler: (args: SearchArguments, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  const { name, ...config } = text;
  server.registerTool(
    name,
    {
      ...config,
      inputSchema: cached(searchSchemas, limits, () => searchSchema(limits)),
      outputSchema: envelopeShape,
    },
    handler,
  );
}

/** Registers the execute tool with its schemas, built from the executor's `limits`. */
export function registerExecuteTool(
  server: McpServer,
  text: ToolText,
  limits: BridgeExecutorLimits | undefined,
  handler: (
    args: ExecuteArguments,
    extra: ToolExtra,
  ) => Promise<CallToolResult | InputRequiredResult>,
): void {
  const { name, ...config } = text;
  server.registerTool(
    name,
    {
      ...config,
      inputSchema: cached(executeSchemas, limits, () => executeSchema(limits)),
      outputSchema: envelopeShape,
    },
    handler,
  );
}
