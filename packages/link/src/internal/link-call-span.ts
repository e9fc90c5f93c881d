// The client side of a link call as an OpenTelemetry span (through @opentelemetry/api only), a
// child of the active context: the host-call span of the script that sent the command. The wire
// protocol is unchanged: the host side is not traced, so no context travels to it.
import { type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

const tracer = trace.getTracer("@dcc/link");

/** Starts the span of a call of `method`; undefined when it would not record (no SDK). */
export function startLinkCallSpan(method: string): Span | undefined {
  const span = tracer.startSpan(`link.call ${method}`, {
    kind: SpanKind.CLIENT,
    attributes: { "rpc.system": "dcc_link", "rpc.method": method },
  });
  if (span.isRecording()) return span;
  span.end();
  return undefined;
}

/** Ends `span` when `call` settles: an error status with the link's code on a failure. */
export function endLinkCallSpan(span: Span, call: Promise<unknown>): Promise<unknown> {
  return call.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string") span.setAttribute("error.type", code);
      const completion = (error as { completion?: unknown }).completion;
      if (typeof completion === "string") span.setAttribute("dcc.completion", completion);
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      span.end();
      throw error;
    },
  );
}
