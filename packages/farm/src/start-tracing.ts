// The application side of tracing: registers OpenTelemetry's Node tracer provider when the
// standard environment asks for traces, for `dcc-farm-worker` and the reference server. The SDK
// and the exporters are loaded with import() only then, so a process without OTEL_* loads none of
// them. The @dcc libraries only create spans through @opentelemetry/api.
import { context, propagation, trace } from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { FarmError } from "./farm-error.ts";

/** Options for {@link startTracing}. */
export interface StartTracingOptions {
  /** `service.name` when `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) gives none. */
  serviceName: string;
  /** The environment to decide from. Default `process.env` (the exporters read it too). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Exports to this exporter instead of the environment's, and turns tracing on whatever the
   * environment says (for a bench or a test in one process). Spans still go through a
   * `BatchSpanProcessor` (its `OTEL_BSP_*` settings apply).
   */
  exporter?: SpanExporter;
}

/** A registered tracer provider; see {@link startTracing}. */
export interface Tracing {
  /** The exporters in use: `otlp (http/protobuf)`, `otlp (http/json)`, `console`, `custom`. */
  readonly exporters: readonly string[];
  /** Exports every finished span now; resolves once sent or after `timeoutMs` (default 5000). */
  flush(timeoutMs?: number): Promise<void>;
  /**
   * Flushes and shuts the provider down, waiting at most `timeoutMs` (default 5000) for the
   * collector. Never rejects: a collector that is down loses the spans, not the process's exit.
   */
  shutdown(timeoutMs?: number): Promise<void>;
}

const supportedExporters = ["otlp", "console", "none"];

/**
 * Which exporters the environment asks for: `OTEL_TRACES_EXPORTER` (a comma list of `otlp`,
 * `console`, `none`), else `otlp` when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), else none; none at all when `OTEL_SDK_DISABLED=true`.
 * @throws {@link FarmError} `INVALID_CONFIG` for an exporter name it does not know.
 */
export function requestedTraceExporters(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  if (env["OTEL_SDK_DISABLED"]?.trim().toLowerCase() === "true") return [];
  const listed = env["OTEL_TRACES_EXPORTER"]?.trim();
  if (listed !== undefined && listed !== "") {
    const names = [...new Set(listed.split(",").map((name) => name.trim().toLowerCase()))].filter(
      (name) => name !== "",
    );
    const unknown = names.filter((name) => !supportedExporters.includes(name));
    if (unknown.length > 0) {
      throw new FarmError({
        code: "INVALID_CONFIG",
        message: `OTEL_TRACES_EXPORTER names ${unknown.join(", ")}; supported: otlp, console, none`,
      });
    }
    return names.includes("none") ? [] : names;
  }
  const endpoint =
    env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]?.trim() || env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim();
  return endpoint === undefined || endpoint === "" ? [] : ["otlp"];
}

/**
 * Registers OpenTelemetry's Node tracer provider, once per process, (W3C trace-context propagation, an
 * AsyncLocalStorage context manager, a `BatchSpanProcessor` per exporter) when the environment
 * asks for traces (see {@link requestedTraceExporters}) or `options.exporter` is given; otherwise
 * resolves undefined and loads nothing. The SDK reads `OTEL_TRACES_SAMPLER(_ARG)` and
 * `OTEL_BSP_*`, the OTLP exporters `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`, `_HEADERS` and
 * `_TIMEOUT`; `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` picks `http/protobuf` (the default) or
 * `http/json`.
 * @throws {@link FarmError} `INVALID_CONFIG` for an unknown exporter or protocol (e.g. `grpc`).
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing | undefined> {
  const env = options.env ?? process.env;
  const names = options.exporter === undefined ? requestedTraceExporters(env) : ["custom"];
  if (names.length === 0) return undefined;
  const protocol = (
    env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"]?.trim() ||
    env["OTEL_EXPORTER_OTLP_PROTOCOL"]?.trim() ||
    "http/protobuf"
  ).toLowerCase();
  if (names.includes("otlp") && protocol !== "http/protobuf" && protocol !== "http/json") {
    throw new FarmError({
      code: "INVALID_CONFIG",
      message: `OTEL_EXPORTER_OTLP_PROTOCOL ${protocol} is not supported; use http/protobuf or http/json`,
    });
  }
  const [{ NodeTracerProvider }, { BatchSpanProcessor, ConsoleSpanExporter }, resources] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/resources"),
    ]);
  const exporters: SpanExporter[] = [];
  const used: string[] = [];
  for (const name of names) {
    if (name === "custom") {
      exporters.push(options.exporter as SpanExporter);
    } else if (name === "console") {
      exporters.push(new ConsoleSpanExporter());
    } else if (protocol === "http/json") {
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
      exporters.push(new OTLPTraceExporter());
    } else {
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
      exporters.push(new OTLPTraceExporter());
    }
    used.push(name === "otlp" ? `otlp (${protocol})` : name);
  }
  // Our name is the default; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override it.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": options.serviceName }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: exporters.map((exporter) => new BatchSpanProcessor(exporter)),
  });
  provider.register();
  let shutDown: Promise<void> | undefined;
  return {
    exporters: used,
    flush: (timeoutMs = 5000) => bounded(provider.forceFlush(), timeoutMs),
    shutdown(timeoutMs = 5000) {
      shutDown ??= bounded(provider.shutdown(), timeoutMs).then(() => {
        // Unregistered, so a later startTracing in the same process (a bench) registers anew.
        trace.disable();
        context.disable();
        propagation.disable();
      });
      return shutDown;
    },
  };
}

/** Waits for `work` at most `ms`; never rejects. */
async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
