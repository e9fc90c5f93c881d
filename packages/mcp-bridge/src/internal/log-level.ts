// Console lines stream only to clients that asked for them. A 2025-11-25 client asks once per
// session with logging/setLevel, which the bridge records per McpServer (the SDK would otherwise
// send to a session that never set a level); a 2026-07-28 client asks per request, with the
// log level key of the request's _meta envelope.
import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";

const levels: ReadonlySet<string> = new Set([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
]);

interface LogState {
  level: LoggingLevel | undefined;
}

const states = new WeakMap<McpServer, LogState>();

/** Reads the level that applies to one request; undefined when the client asked for no lines. */
export type LogLevelReader = (context: ServerContext) => LoggingLevel | undefined;

/**
 * Declares the logging capability (when the server is not connected yet) and records the level
 * a 2025 client sets. Returns a reader of the level that applies to a request; idempotent per
 * server.
 */
export function trackLogLevel(server: McpServer): LogLevelReader {
  let state = states.get(server);
  if (state === undefined) {
    const created: LogState = { level: undefined };
    state = created;
    states.set(server, created);
    try {
      server.server.registerCapabilities({ logging: {} });
      server.server.setRequestHandler("logging/setLevel", async (request) => {
        const level = request.params.level;
        if (levels.has(level)) created.level = level;
        return {};
      });
    } catch {
      // Already connected: capabilities are fixed, so console lines are not streamed.
    }
  }
  const current = state;
  return (context) => {
    // The envelope is present exactly on 2026-07-28 requests.
    const envelope = context.mcpReq.envelope;
    if (envelope === undefined) return current.level;
    const level = (envelope as Record<string, unknown>)[LOG_LEVEL_META_KEY];
    return typeof level === "string" && levels.has(level) ? (level as LoggingLevel) : undefined;
  };
}
