// A test OTLP/HTTP trace receiver: a real HTTP server on a free loopback port that accepts what
// OpenTelemetry's exporters POST to `/v1/traces`. `http/json` bodies are decoded into flat spans;
// `http/protobuf` bodies are kept as bytes (with their content type) for tests to inspect.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as the receiver decoded it from an `http/json` export. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP span kind number (1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  /** Attribute values, unwrapped from OTLP's `AnyValue` (arrays as arrays). */
  attributes: Record<string, unknown>;
  /** Event names with their attributes. */
  events: { name: string; attributes: Record<string, unknown> }[];
  /** OTLP status code (0 unset, 1 ok, 2 error). */
  statusCode: number;
  /** The exporting process's `service.name`. */
  serviceName: string;
}

/** One POST the receiver answered. */
export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base URL, e.g. `http://127.0.0.1:4318` (what `OTEL_EXPORTER_OTLP_ENDPOINT` takes). */
  url: string;
  /** The traces URL, `${url}/v1/traces`. */
  tracesUrl: string;
  /** Every POST so far, in order. */
  readonly exports: ReceivedExport[];
  /** The spans of every `http/json` export so far. */
  spans(): ReceivedSpan[];
  /**
   * Polls every 20 ms until `predicate` holds for the spans received, or `ms` (default 60 s, a
   * hang guard) passes; returns the spans either way.
   */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 and a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exports.push({
        path: request.url ?? "",
        contentType: String(request.headers["content-type"] ?? ""),
        body: Buffer.concat(chunks),
      });
      const json = String(request.headers["content-type"] ?? "").includes("json");
      response.writeHead(200, {
        "content-type": json ? "application/json" : "application/x-protobuf",
      });
      response.end(json ? "{}" : undefined);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spans = (): ReceivedSpan[] =>
    exports
      .filter((entry) => entry.contentType.includes("json"))
      .flatMap((entry) => decode(entry.body));
  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    exports,
    spans,
    async waitFor(predicate, ms = 60_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const seen = spans();
        if (predicate(seen) || Date.now() > deadline) return seen;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

function value(any: AnyValue): unknown {
  if (any.stringValue !== undefined) return any.stringValue;
  if (any.boolValue !== undefined) return any.boolValue;
  if (any.intValue !== undefined) return Number(any.intValue);
  if (any.doubleValue !== undefined) return any.doubleValue;
  if (any.arrayValue !== undefined) return (any.arrayValue.values ?? []).map(value);
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, value(entry.value)]));
}

function decode(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString("utf8")) as {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind?: number;
          attributes?: KeyValue[];
          events?: { name: string; attributes?: KeyValue[] }[];
          status?: { code?: number };
        }[];
      }[];
    }[];
  };
  return (request.resourceSpans ?? []).flatMap((resource) => {
    const serviceName = String(attributesOf(resource.resource?.attributes)["service.name"] ?? "");
    return (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind ?? 0,
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        statusCode: span.status?.code ?? 0,
        serviceName,
      })),
    );
  });
}
