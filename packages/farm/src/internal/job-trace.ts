// A farm job in its caller's trace, through @opentelemetry/api only: the server injects the W3C
// trace context of a `send` span into the job's data at submission, and the worker extracts it and
// runs the job under a `process` span, so the worker's script and host-call spans join the trace
// of the tool call that queued the job. Without a registered SDK nothing is injected or recorded.
import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

const tracer = trace.getTracer("@dcc/farm");

/** The span around one submission and the carrier of its context for the job's data. */
export interface SubmitTrace {
  /** `traceparent`/`tracestate` to store with the job; undefined when there is nothing to carry. */
  carrier: Record<string, string> | undefined;
  /** Ends the span; `error` when the submission failed. */
  end(error?: unknown): void;
}

/** Starts the `send <queue>` span of a submission, a child of the active context (the call's). */
export function startSubmitTrace(queue: string, jobId: string): SubmitTrace {
  const span = tracer.startSpan(`send ${queue}`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      "messaging.system": "bullmq",
      "messaging.operation.type": "send",
      "messaging.destination.name": queue,
      "messaging.message.id": jobId,
    },
  });
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return {
    carrier: Object.keys(carrier).length === 0 ? undefined : carrier,
    end: (error) => endSpan(span, error),
  };
}

/**
 * Runs `work` under the `process <queue>` span of a job, a child of the context its data carries
 * (none: a new trace), and ends the span with the job's envelope. `preapproved` (the job's
 * pre-approved rules) becomes the span's `dcc.job.preapproved`.
 */
export async function runTracedJob<T extends { success: boolean; [field: string]: unknown }>(
  queue: string,
  jobId: string,
  carrier: unknown,
  work: () => Promise<T>,
  preapproved?: readonly string[],
): Promise<T> {
  const parent = parentOf(carrier);
  const span = tracer.startSpan(
    `process ${queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "bullmq",
        "messaging.operation.type": "process",
        "messaging.destination.name": queue,
        "messaging.message.id": jobId,
        "dcc.job.id": jobId,
        // What the submission approved in advance; each question's answer is a `dcc.approval`
        // event on the script's span below this one.
        ...(preapproved === undefined || preapproved.length === 0
          ? {}
          : { "dcc.job.preapproved": [...preapproved] }),
      },
    },
    parent,
  );
  if (!span.isRecording()) {
    span.end();
    return work();
  }
  let result: T;
  try {
    result = await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
  span.setAttribute("dcc.success", result.success);
  const completion = result["completion"];
  if (typeof completion === "string") span.setAttribute("dcc.completion", completion);
  if (!result.success) {
    const code = result["errorCode"];
    if (typeof code === "string") span.setAttribute("error.type", code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(result["error"] ?? "failed") });
  }
  span.end();
  return result;
}

/** The context a job's stored carrier names; plain strings only, from the job's data. */
function parentOf(carrier: unknown): Context {
  const active = context.active();
  if (carrier === null || typeof carrier !== "object") return active;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(carrier)) {
    if (typeof value === "string") fields[key] = value;
  }
  return propagation.extract(active, fields);
}

function endSpan(span: Span, error: unknown): void {
  if (error !== undefined) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
  span.end();
}
