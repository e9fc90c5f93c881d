// Spans of one execution through @opentelemetry/api: one span per script and a child span for each
// of its first host calls; calls past the cap are only counted, and the counts per command land on
// the script span when it ends. Without a registered SDK the script span does not record, and
// nothing here times, counts or builds attributes.
import {
  type Context,
  context,
  isSpanContextValid,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { ExecuteResult } from "../execute-result.ts";

const tracer = trace.getTracer("@dcc/executor");

/** Distinct commands listed in a script span's summary; the rest are folded into `(other)`. */
const maxSummaryCommands = 50;

/** One host call being traced: the context its command runs in, and its end. */
export interface TracedHostCall {
  /** The host call's span context, or the script's once the cap is reached. */
  readonly context: Context;
  /** Ends the call's span (if it has one) and adds the call to the script's summary. */
  end(error?: unknown): void;
}

/** The tracing of one execution; see {@link startScriptTrace}. */
export interface ScriptTrace {
  /** The script span's context; undefined without a tracing SDK. */
  readonly context: Context | undefined;
  /** Starts tracing one host call; undefined without a tracing SDK. */
  hostCall(command: string): TracedHostCall | undefined;
  /** Ends the script span with the execution's outcome, or with what the execution threw. */
  end(result: ExecuteResult | { thrown: unknown }): void;
}

interface CommandTotals {
  count: number;
  errors: number;
  ms: number;
}

/**
 * Starts the span of one script on `dccName`, a child of the active context (the tool call's
 * span, when a bridge runs it). At most `maxHostCallSpans` host calls get child spans.
 */
export function startScriptTrace(dccName: string, maxHostCallSpans: number): ScriptTrace {
  const span = tracer.startSpan("dcc.script", { kind: SpanKind.INTERNAL });
  if (!span.isRecording()) {
    // No SDK: nothing to carry. An SDK that did not sample the script: its commands still run
    // in its context, so their link calls are not sampled as new traces of their own.
    if (!isSpanContextValid(span.spanContext())) {
      return { context: undefined, hostCall: () => undefined, end: () => {} };
    }
    const unsampled = trace.setSpan(context.active(), span);
    const call: TracedHostCall = { context: unsampled, end: () => {} };
    return { context: unsampled, hostCall: () => call, end: () => span.end() };
  }
  span.setAttribute("dcc.name", dccName);
  const scriptContext = trace.setSpan(context.active(), span);
  const totals = new Map<string, CommandTotals>();
  let calls = 0;
  let traced = 0;
  let totalMs = 0;
  return {
    context: scriptContext,
    hostCall(command) {
      calls++;
      const startedAt = performance.now();
      let child: Span | undefined;
      if (traced < maxHostCallSpans) {
        traced++;
        child = tracer.startSpan(
          `dispatch ${command}`,
          { kind: SpanKind.INTERNAL, attributes: { "dcc.name": dccName, "dcc.command": command } },
          scriptContext,
        );
      }
      return {
        context: child === undefined ? scriptContext : trace.setSpan(scriptContext, child),
        end(error) {
          const ms = performance.now() - startedAt;
          totalMs += ms;
          const key = totals.has(command) || totals.size < maxSummaryCommands ? command : "(other)";
          const entry = totals.get(key) ?? { count: 0, errors: 0, ms: 0 };
          entry.count++;
          entry.ms += ms;
          if (error !== undefined) entry.errors++;
          totals.set(key, entry);
          if (child === undefined) return;
          if (error !== undefined) {
            const code = (error as { code?: unknown }).code;
            if (typeof code === "string") child.setAttribute("error.type", code);
            child.setStatus({ code: SpanStatusCode.ERROR, message: errorText(error) });
          }
          child.end();
        },
      };
    },
    end(result) {
      if ("thrown" in result) {
        span.recordException(
          result.thrown instanceof Error ? result.thrown : String(result.thrown),
        );
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(result.thrown) });
        span.end();
        return;
      }
      span.setAttributes({
        "dcc.script.success": result.success,
        "dcc.completion": result.completion,
        "dcc.dispatch_calls": result.stats.dispatchCalls,
        "dcc.host_calls.count": calls,
        "dcc.host_calls.spans": traced,
        "dcc.host_calls.duration_ms": Math.round(totalMs * 1000) / 1000,
      });
      if (totals.size > 0) {
        const entries = [...totals.entries()];
        span.addEvent("dcc.host_calls.summary", {
          "dcc.commands": entries.map(([name]) => name),
          "dcc.command.counts": entries.map(([, entry]) => entry.count),
          "dcc.command.errors": entries.map(([, entry]) => entry.errors),
          "dcc.command.duration_ms": entries.map(([, entry]) => Math.round(entry.ms * 1000) / 1000),
        });
      }
      // Each question a person was asked, and the answer (approvals are rare and bounded).
      for (const approval of result.stats.approvals ?? []) {
        span.addEvent("dcc.approval", {
          "dcc.approval.rule": approval.rule,
          "dcc.command": approval.command,
          "dcc.approval.summary": approval.summary,
          "dcc.approval.answer": approval.answer,
          ...(approval.by === undefined ? {} : { "dcc.approval.by": approval.by }),
          "dcc.approval.waited_ms": approval.waitedMs,
        });
      }
      if (!result.success) {
        span.setAttribute("error.type", result.errorCode);
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
      }
      span.end();
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
