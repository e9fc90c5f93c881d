// Zod shapes of the two tools. Messages name the argument and the rule, because the SDK forwards
// them verbatim to the agent ("Input validation error: Invalid arguments for tool …").
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** Input of the search tool. */
const searchInputShape = {
  query: z
    .string({ error: "query must be a string" })
    .min(1, "query must not be empty")
    .max(500, "query must be at most 500 characters")
    .describe("Words to look for in command names, flags and descriptions."),
  limit: z
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be between 1 and 50")
    .max(50, "limit must be between 1 and 50")
    .default(10)
    .describe("Most results, 1-50 (default 10)."),
};

/** Input of the execute tool: a script, a materialized script with params, or a job action. */
const executeInputShape = {
  code: z
    .string({ error: "code must be a string" })
    .max(200_000, "code must be at most 200000 characters")
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
  timeout_secs: z
    .number({ error: "timeout_secs must be a number of seconds" })
    .int("timeout_secs must be a whole number of seconds")
    .min(1, "timeout_secs must be between 1 and 300")
    .max(300, "timeout_secs must be between 1 and 300")
    .default(30)
    .describe("Time limit, 1-300 s (default 30)."),
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

/** Output envelope shared by both tools: `success` and `message` always, other fields pass through. */
const envelopeShape = z.looseObject({
  success: z.boolean(),
  message: z.string(),
});

/** Parsed execute arguments (kept in step with `executeInputShape`; the compiler checks it). */
export interface ExecuteArguments {
  code?: string | undefined;
  file_path?: string | undefined;
  params?: Record<string, unknown> | undefined;
  sha256?: string | undefined;
  timeout_secs: number;
  async?: boolean | undefined;
  job_id?: string | undefined;
  job_action?: "status" | "result" | "cancel" | undefined;
}

/** Parsed search arguments. */
export interface SearchArguments {
  query: string;
  limit: number;
}

/** The SDK's per-request context as the tool handlers see it. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Display fields of one tool. */
export interface ToolText {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

/** Registers the search tool with its schemas. */
export function registerSearchTool(
  server: McpServer,
  text: ToolText,
  handler: (args: SearchArguments, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  const { name, ...config } = text;
  server.registerTool(
    name,
    { ...config, inputSchema: searchInputShape, outputSchema: envelopeShape },
    handler,
  );
}

/** Registers the execute tool with its schemas. */
export function registerExecuteTool(
  server: McpServer,
  text: ToolText,
  handler: (args: ExecuteArguments, extra: ToolExtra) => Promise<CallToolResult>,
): void {
  const { name, ...config } = text;
  server.registerTool(
    name,
    { ...config, inputSchema: executeInputShape, outputSchema: envelopeShape },
    handler,
  );
}
