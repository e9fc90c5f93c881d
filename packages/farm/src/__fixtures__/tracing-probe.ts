// Run as a child process: calls startTracing with the environment given as JSON in argv[2] and
// prints which OpenTelemetry SDK and exporter modules the process has loaded since.
import { createRequire } from "node:module";
import { startTracing } from "../start-tracing.ts";

const env = JSON.parse(process.argv[2] ?? "{}") as Record<string, string>;
const tracing = await startTracing({ serviceName: "probe", env });
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) =>
  /@opentelemetry[\\/](sdk-trace|exporter-trace|resources)/.test(path),
);
process.stdout.write(
  `${JSON.stringify({ started: tracing !== undefined, loaded: loaded.length })}\n`,
);
await tracing?.shutdown(1000);
