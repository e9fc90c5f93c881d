// Spans of the bridge's tool calls, through @opentelemetry/api only: one per `tools/call` (named
// and described after MCP's draft semantic conventions), a child of the caller's W3C trace context
// from the request's `_meta` when it carries one; and one per async job, ending with the job.
// Without a registered SDK the spans do not record and no attribute is built.
import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";
import type { BridgeResult } from "../bridge-executor.ts";

const tracer = trace.getTracer("@dcc/mcp-bridge");

/** Reads `traceparent`/`tracestate` from `_meta`: strings only, anything else is absent. */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** Who made a call, as the span records it. */
export interface CallIdentity {
  sessionId: string | undefined;
  tokenLabel: string | undefined;
  clientName: string | undefined;
}

/** One traced tool call; see {@link startToolCallSpan}. */
export interface ToolCallSpan {
  /** The context the call's work runs in (the span's, under the caller's trace). */
  readonly context: Context;
  /** Ends the span with the envelope the tool answered. */
  end(result: BridgeResult): void;
  /**
   * Runs `work` in the span's context and ends the span with its envelope (or its throw); `jobId`
   * names the server-owned id the work ran under, once it has run (a synchronous script's).
   */
  run<T extends BridgeResult | QuestionRound>(
    work: () => Promise<T>,
    jobId?: () => string | undefined,
  ): Promise<T>;
}

/**
 * Starts the span of one `tools/call` of `tool`: parented on the W3C trace context in `meta`
 * (`traceparent`, `tracestate`) when there is one, else on the active context.
 */
export function startToolCallSpan(
  tool: string,
  dccName: string,
  meta: Record<string, unknown> | undefined,
  identity: () => CallIdentity,
): ToolCallSpan {
  const active = context.active();
  const parent = meta === undefined ? active : propagation.extract(active, meta, metaGetter);
  const span = tracer.startSpan(`tools/call ${tool}`, { kind: SpanKind.SERVER }, parent);
  if (span.isRecording()) {
    const who = identity();
    const attributes: Attributes = {
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "dcc.name": dccName,
    };
    if (who.sessionId !== undefined) attributes["mcp.session.id"] = who.sessionId;
    // The label is verified (a labelled token); the name is only what the client calls itself.
    if (who.tokenLabel !== undefined) attributes["dcc.client.label"] = who.tokenLabel;
    if (who.clientName !== undefined) attributes["dcc.client.claimed_name"] = who.clientName;
    span.setAttributes(attributes);
  }
  return traced(span, trace.setSpan(parent, span));
}

/**
 * Starts the span of an async job (`dcc.job`) in the active context, the tool call's that
 * started it; the job's script runs under it and it ends with the job.
 */
export function startJobSpan(dccName: string, jobId: string): ToolCallSpan {
  const span = tracer.startSpan("dcc.job", { kind: SpanKind.INTERNAL });
  if (span.isRecording()) span.setAttributes({ "dcc.name": dccName, "dcc.job.id": jobId });
  return traced(span, trace.setSpan(context.active(), span));
}

function traced(span: Span, spanContext: Context): ToolCallSpan {
  return {
    context: spanContext,
    end: (result) => endWithResult(span, result),
    async run<T extends BridgeResult | QuestionRound>(
      work: () => Promise<T>,
      jobId?: () => string | undefined,
    ): Promise<T> {
      let result: T;
      try {
        result = await context.with(spanContext, work);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        endWithResult(span, { success: false, message, error: message, errorCode: "INTERNAL" });
        throw error;
      }
      const id = jobId?.();
      if (id !== undefined && span.isRecording()) span.setAttribute("dcc.job.id", id);
      endWithResult(span, result);
      return result;
    },
  };
}

/** A round of a call that ends with questions for the client (2026-07-28 `input_required`). */
export interface QuestionRound {
  readonly inputRequired: unknown;
}

function endWithResult(span: Span, result: BridgeResult | QuestionRound): void {
  if ("inputRequired" in result) {
    // The call goes on in the retried request, under a span of its own.
    if (span.isRecording()) span.setAttribute("dcc.approval.asked", true);
    span.end();
    return;
  }
  if (span.isRecording()) {
    const attributes: Attributes = { "dcc.success": result.success };
    const jobId = result["job_id"];
    if (typeof jobId === "string") attributes["dcc.job.id"] = jobId;
    const completion = result["completion"];
    if (typeof completion === "string") attributes["dcc.completion"] = completion;
    const stats = result["stats"] as { dispatchCalls?: unknown } | undefined;
    if (typeof stats?.dispatchCalls === "number") {
      attributes["dcc.dispatch_calls"] = stats.dispatchCalls;
    }
    if (!result.success) {
      const code = result["errorCode"];
      // MCP's conventions: a tool result with isError is a `tool_error` unless a code says more.
      attributes["error.type"] = typeof code === "string" ? code : "tool_error";
      const error = result["error"];
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: typeof error === "string" ? error : result.message,
      });
    }
    span.setAttributes(attributes);
  }
  span.end();
}
