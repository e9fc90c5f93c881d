#!/usr/bin/env node
// The reference server's command line: `pnpm start` at the repository root, or the
// `dcc-mcp` bin (`npx -y @dcc/reference-server`). Logs go to stderr; over stdio, stdout is MCP's.
import { startTracing, type Tracing } from "@dcc/farm";
import { dccLabels } from "./adapters/select-adapters.ts";
import { describeConfig } from "./cli/describe-config.ts";
import { readTokensFile } from "./cli/labelled-tokens.ts";
import { CliUsageError, parseCliArguments, usage } from "./cli/parse-cli-arguments.ts";
import { createReferenceServer } from "./server/reference-server.ts";

let config: ReturnType<typeof parseCliArguments>;
try {
  config = parseCliArguments(process.argv.slice(2), process.env, process.cwd());
} catch (error) {
  if (!(error instanceof CliUsageError)) throw error;
  process.stderr.write(`dcc-mcp: ${error.message}\n\n${usage}`);
  process.exit(2);
}
if (config.help) {
  process.stdout.write(usage);
  process.exit(0);
}
if (config.check) {
  process.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
  process.exit(0);
}

// Traces only when the standard OTEL_* environment asks (see @dcc/farm's startTracing); otherwise
// the OpenTelemetry SDK is never loaded.
let tracing: Tracing | undefined;
try {
  tracing = await startTracing({ serviceName: "dcc-reference-server" });
} catch (error) {
  process.stderr.write(`dcc-mcp: ${(error as Error).message}\n`);
  process.exit(2);
}
if (tracing?.exporters.includes("console") && config.transport === "stdio") {
  // The console exporter prints to stdout, which carries MCP over stdio.
  process.stderr.write(
    "dcc-mcp: OTEL_TRACES_EXPORTER=console writes to stdout, MCP's channel over stdio; use otlp\n",
  );
  process.exit(2);
}
if (tracing !== undefined) {
  process.stderr.write(`dcc reference server: traces to ${tracing.exporters.join(", ")}\n`);
}

let server: Awaited<ReturnType<typeof createReferenceServer>>;
try {
  server = await createReferenceServer({
    transport: config.transport,
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    scriptsDir: config.scriptsDir,
    blenderWindow: config.blenderWindow,
    maya: config.maya,
    sandbox: config.sandbox,
    ...(config.blenderAttach === undefined ? {} : { blenderAttach: config.blenderAttach }),
    ...(config.dcc === undefined ? {} : { dcc: config.dcc }),
    ...(config.token === undefined ? {} : { token: config.token }),
    ...(config.tokens === undefined ? {} : { tokens: config.tokens }),
    ...(config.farm === undefined ? {} : { farm: config.farm }),
    ...(config.audit === undefined ? {} : { audit: config.audit }),
    ...(config.approval === undefined ? {} : { approval: config.approval }),
    ...config.sessions,
  });
} catch (error) {
  process.stderr.write(`dcc-mcp: could not start: ${(error as Error).message}\n`);
  process.exit(1);
}

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) {
    // A second Ctrl-C means "now".
    process.exit(1);
  }
  stopping = true;
  process.stderr.write(`dcc reference server: ${signal}, shutting down\n`);
  void server.close().then(
    // The last spans are sent within a bounded wait.
    () => exitAfterTraces(0),
    (error: unknown) => {
      process.stderr.write(`dcc reference server: shutdown failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
// A tokens file is read again on SIGHUP: a removed line revokes its token, without a restart.
const tokensFile = config.tokensFile;
if (tokensFile !== undefined && config.transport === "http") {
  process.on("SIGHUP", () => {
    try {
      const tokens = readTokensFile(tokensFile);
      server.updateTokens(tokens);
      process.stderr.write(
        `dcc reference server: SIGHUP, ${tokens.length} labelled tokens read again from ${tokensFile}\n`,
      );
    } catch (error) {
      // The message names the file and line, never a token; the tokens in use stay.
      process.stderr.write(
        `dcc reference server: SIGHUP, tokens not changed: ${(error as Error).message}\n`,
      );
    }
  });
}
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
// A farm's Redis that does not answer is said now (bounded); /readyz says it until it answers.
await server.jobQueue?.ready().catch((error: unknown) => {
  process.stderr.write(
    `dcc reference server: the farm's queue is unavailable (${(error as Error).message}); scripts answer JOB_QUEUE_UNAVAILABLE and /readyz 503 until it answers\n`,
  );
});
// The ready line comes last: whoever reads it may signal this process at once.
const where = server.url === undefined ? "MCP over stdio" : `MCP at ${server.url}`;
const farmNote = config.farm === undefined ? "" : ", catalog only: scripts run on the farm";
process.stderr.write(
  `dcc reference server (${dccLabels(config.dcc, undefined, config)}${farmNote}) ready: ${where} (scene files in ${config.dataDir}); Ctrl-C to stop\n`,
);

void server.closed.then(() => {
  if (!stopping) exitAfterTraces(0);
});

function exitAfterTraces(code: number): void {
  void (tracing?.shutdown(5000) ?? Promise.resolve()).then(() => process.exit(code));
}
