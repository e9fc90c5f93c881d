import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { requestedTraceExporters, startTracing } from "./start-tracing.ts";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Runs the probe in a fresh Node process with `env` and reads what it loaded. */
async function probe(env: Record<string, string>): Promise<{ started: boolean; loaded: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--conditions=@dcc/source",
      "--import",
      "tsx",
      "src/__fixtures__/tracing-probe.ts",
      JSON.stringify(env),
    ],
    { cwd: packageDir, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

describe("requestedTraceExporters: off unless the environment asks", () => {
  it("reads OTEL_TRACES_EXPORTER, the OTLP endpoints and OTEL_SDK_DISABLED", () => {
    expect(requestedTraceExporters({})).toEqual([]);
    expect(requestedTraceExporters({ OTEL_SERVICE_NAME: "x" })).toEqual([]);
    expect(requestedTraceExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toEqual([
      "otlp",
    ]);
    expect(
      requestedTraceExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }),
    ).toEqual(["otlp"]);
    expect(requestedTraceExporters({ OTEL_TRACES_EXPORTER: "console, otlp" })).toEqual([
      "console",
      "otlp",
    ]);
    expect(
      requestedTraceExporters({
        OTEL_TRACES_EXPORTER: "none",
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      }),
    ).toEqual([]);
    expect(
      requestedTraceExporters({
        OTEL_SDK_DISABLED: "true",
        OTEL_TRACES_EXPORTER: "otlp",
      }),
    ).toEqual([]);
    expect(() => requestedTraceExporters({ OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(
      /OTEL_TRACES_EXPORTER names zipkin; supported: otlp, console, none/,
    );
  });

  it("refuses the grpc protocol by name, and starts nothing when not asked", async () => {
    await expect(
      startTracing({
        serviceName: "test",
        env: { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL grpc is not supported/);
    await expect(startTracing({ serviceName: "test", env: {} })).resolves.toBeUndefined();
  });
});

describe("startTracing: the SDK is loaded only when asked", () => {
  it("loads no SDK or exporter module without OTEL_* settings, and loads them when asked", async () => {
    expect(await probe({})).toEqual({ started: false, loaded: 0 });
    const asked = await probe({ OTEL_TRACES_EXPORTER: "otlp" });
    expect(asked.started).toBe(true);
    expect(asked.loaded).toBeGreaterThan(0);
  });
});
