import {
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequiredResult,
  type McpServer,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { BridgeExecutor, BridgeResult } from "./bridge-executor.ts";
import type { DccToolCallEvent, DccToolCallObserver } from "./dcc-tool-call-event.ts";
import { canElicitForm } from "./internal/approval-form.ts";
import { clientNameOf, tokenLabelOf } from "./internal/call-identity.ts";
import { callScript } from "./internal/call-script.ts";
import { type ExecuteCallFacts, runExecuteCall } from "./internal/execute-call.ts";
import { runJobAction } from "./internal/job-actions.ts";
import { trackLogLevel } from "./internal/log-level.ts";
import { withSearchHitFields } from "./internal/search-hits.ts";
import { type CallIdentity, startToolCallSpan } from "./internal/tool-call-trace.ts";
import { executeDescription, searchDescription } from "./internal/tool-descriptions.ts";
import { toToolResult } from "./internal/tool-result.ts";
import { registerExecuteTool, registerSearchTool } from "./internal/tool-schemas.ts";
import { JobManager } from "./job-manager.ts";
import { McpBridgeError } from "./mcp-bridge-error.ts";

/** Options for {@link registerDccApiExecutor}. */
export interface RegisterDccApiExecutorOptions {
  /** Name of the search tool. Default `dcc_search`. */
  searchToolName?: string;
  /** Name of the execute tool. Default `dcc_execute`. */
  executeToolName?: string;
  /** Job manager shared with other registrations and sessions. Default: a new one. */
  jobs?: JobManager;
  /** Largest result JSON, in characters, before structured truncation. Default 24 000. */
  maxResultChars?: number;
  /** Least time between two progress notifications of one call, in ms. Default 50. */
  progressIntervalMs?: number;
  /** Most console lines streamed as log notifications per call. Default 200. */
  maxLogNotifications?: number;
  /** Replaces the default search tool description. */
  searchDescription?: string;
  /** Replaces the default execute tool description. */
  executeDescription?: string;
  /** Told about every finished call of both tools (metrics, audit). Default: none. */
  onToolCall?: DccToolCallObserver;
}

/** What {@link registerDccApiExecutor} registered. */
export interface RegisteredDccApiTools {
  /** The search tool's name. */
  searchToolName: string;
  /** The execute tool's name. */
  executeToolName: string;
  /** The job manager the execute tool uses. */
  jobs: JobManager;
}

const toolName = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Registers the search and execute tools of one executor on an MCP SDK `McpServer`. Call it once
 * per executor, with distinct tool names (`maya_search`, `blender_search`, …), before connecting.
 * Results carry `structuredContent` and the same JSON as text; `success: false` sets `isError`.
 * @throws {@link McpBridgeError} `INVALID_CONFIG` for bad or clashing tool names.
 */
export function registerDccApiExecutor(
  server: McpServer,
  executor: BridgeExecutor,
  options: RegisterDccApiExecutorOptions = {},
): RegisteredDccApiTools {
  const searchToolName = options.searchToolName ?? "dcc_search";
  const executeToolName = options.executeToolName ?? "dcc_execute";
  for (const name of [searchToolName, executeToolName]) {
    if (!toolName.test(name)) {
      throw new McpBridgeError({
        code: "INVALID_CONFIG",
        message: `Invalid tool name: ${JSON.stringify(name)}`,
      });
    }
  }
  if (searchToolName === executeToolName) {
    throw new McpBridgeError({
      code: "INVALID_CONFIG",
      message: "The search and execute tools need distinct names",
    });
  }
  const jobs = options.jobs ?? new JobManager();
  const maxResultChars = Math.max(1000, options.maxResultChars ?? 24_000);
  const logLevel = trackLogLevel(server);
  const dccName = executor.dccName;
  const observe = (
    tool: string,
    kind: "search" | "execute",
    startedAt: number,
    result: BridgeResult,
    extra: ServerContext,
    details: Partial<DccToolCallEvent> = {},
  ): void => {
    if (options.onToolCall === undefined) return;
    try {
      options.onToolCall({
        tool,
        kind,
        dccName,
        result,
        durationMs: performance.now() - startedAt,
        sessionId: extra.sessionId,
        tokenLabel: tokenLabelOf(extra),
        clientName: clientNameOf(server),
        phase: "call",
        ...details,
      });
    } catch {
      // An observer's failure must never fail the call it watches.
    }
  };

  const identity = (extra: ServerContext): CallIdentity => ({
    sessionId: extra.sessionId,
    tokenLabel: tokenLabelOf(extra),
    clientName: clientNameOf(server),
  });

  try {
    registerSearchTool(
      server,
      {
        name: searchToolName,
        title: `Search ${dccName} commands`,
        description: options.searchDescription ?? searchDescription(dccName, executeToolName),
        annotations: {
          readOnlyHint: true,
          idempotentHint: true,
          destructiveHint: false,
          openWorldHint: false,
        },
      },
      executor.searchLimits,
      async ({ query, limit }, extra) => {
        const startedAt = performance.now();
        const span = startToolCallSpan(searchToolName, dccName, extra.mcpReq._meta, () =>
          identity(extra),
        );
        let result: BridgeResult;
        try {
          result = { ...executor.search(query, limit === undefined ? {} : { limit }) };
          if ("results" in result) result["results"] = withSearchHitFields(result["results"]);
        } catch (error) {
          result = {
            success: false,
            message: `Search failed on ${dccName}.`,
            error: errorText(error),
          };
        }
        span.end(result);
        observe(searchToolName, "search", startedAt, result, extra);
        return toToolResult(result, maxResultChars);
      },
    );
    registerExecuteTool(
      server,
      {
        name: executeToolName,
        title: `Run a ${dccName} script`,
        description:
          options.executeDescription ??
          executeDescription(dccName, searchToolName, executor.limits),
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      executor.limits,
      async (args, extra) => {
        const startedAt = performance.now();
        const jobAction = args.job_id !== undefined || args.job_action !== undefined;
        const facts: ExecuteCallFacts = { startedAt };
        const async = args.async === true || isAsyncMeta(extra.mcpReq._meta);
        const span = startToolCallSpan(executeToolName, dccName, extra.mcpReq._meta, () =>
          identity(extra),
        );
        const outcome = await span.run(
          () =>
            jobAction
              ? runJobAction(args, { jobs, dccName, executeToolName })
              : runExecuteCall(
                  executor,
                  args,
                  extra,
                  {
                    jobs,
                    roundTrips: jobs.roundTrips,
                    executeToolName,
                    logLevel,
                    progressIntervalMs: options.progressIntervalMs ?? 50,
                    maxLogNotifications: options.maxLogNotifications ?? 200,
                    maxResultChars,
                    askingOf: (context) => askingOf(server, context),
                    onUndelivered: (undelivered, jobId) =>
                      observe(executeToolName, "execute", startedAt, undelivered, extra, {
                        ...(jobId === undefined ? {} : { jobId }),
                        async: false,
                        script: callScript(args, undelivered),
                      }),
                    // Verified only: a labelled token's label (the audit line keeps the name a
                    // client gives itself apart, as `client_claimed`).
                    answererOf: (context) => tokenLabelOf(context),
                    identityOf: (context) => {
                      const tokenLabel = tokenLabelOf(context);
                      const clientName = clientNameOf(server);
                      return {
                        ...(tokenLabel === undefined ? {} : { tokenLabel }),
                        ...(clientName === undefined ? {} : { clientName }),
                      };
                    },
                    onJobFinished: (jobId, jobResult, durationMs) =>
                      observe(
                        executeToolName,
                        "execute",
                        performance.now() - durationMs,
                        jobResult,
                        extra,
                        {
                          phase: "job",
                          jobId,
                          async: true,
                          script: callScript(args, jobResult),
                        },
                      ),
                  },
                  facts,
                ),
          () => facts.jobId,
        );
        // A question for the client (2026-07-28): the call goes on in the retried request.
        if ("inputRequired" in outcome) return outcome["inputRequired"] as InputRequiredResult;
        const result = outcome as BridgeResult;
        if (facts.reported !== true)
          // A retried 2026-07-28 call: its duration runs from the first request.
          observe(executeToolName, "execute", facts.startedAt ?? startedAt, result, extra, {
            jobId: jobAction ? args.job_id : (facts.jobId ?? jobIdOf(result)),
            ...(jobAction
              ? { jobAction: args.job_action }
              : { async, script: callScript(args, result) }),
          });
        return toToolResult(result, maxResultChars);
      },
    );
  } catch (error) {
    if (error instanceof McpBridgeError) throw error;
    throw new McpBridgeError({ code: "INVALID_CONFIG", message: errorText(error), cause: error });
  }
  return { searchToolName, executeToolName, jobs };
}

/** The first protocol revision whose servers ask through `input_required` results. */
const roundTripRevision = "2026-07-28";

/**
 * How the client of a call is asked to approve a command: a 2026-07-28 request says its revision
 * and capabilities in its own envelope (on every transport); a 2025-11-25 one said them in
 * `initialize`.
 */
function askingOf(server: McpServer, extra: ServerContext): "elicit" | "round-trip" | "none" {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  const revision = envelope?.[PROTOCOL_VERSION_META_KEY];
  // Revisions are dates, so they compare as strings.
  if (typeof revision === "string" && revision >= roundTripRevision) {
    return canElicitForm(envelope?.[CLIENT_CAPABILITIES_META_KEY]) ? "round-trip" : "none";
  }
  let capabilities: unknown;
  let version: string | undefined;
  try {
    capabilities = server.server.getClientCapabilities();
    version = server.server.getNegotiatedProtocolVersion();
  } catch {
    return "none";
  }
  if (!canElicitForm(capabilities)) return "none";
  return version !== undefined && version >= roundTripRevision ? "round-trip" : "elicit";
}

/** The job id of an async call's handle. */
function jobIdOf(result: BridgeResult): string | undefined {
  const jobId = result["job_id"];
  return typeof jobId === "string" ? jobId : undefined;
}

/** Whether the request's `_meta.dcc.async` asked for a job (as the execute call reads it). */
function isAsyncMeta(meta: Record<string, unknown> | undefined): boolean {
  const dcc = meta?.["dcc"];
  return (
    dcc !== null && typeof dcc === "object" && (dcc as Record<string, unknown>)["async"] === true
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
