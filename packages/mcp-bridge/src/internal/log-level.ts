// The SDK sends notifications/message to a session that never called logging/setLevel; we stream
// console lines only to clients that asked, so the bridge tracks the level itself per McpServer.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type LoggingLevel, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";

interface LogState {
  level: LoggingLevel | undefined;
}

const states = new WeakMap<McpServer, LogState>();

/**
 * Declares the logging capability (when the server is not connected yet) and records the level
 * each client sets. Returns a reader of the current level; idempotent per server.
 */
export function trackLogLevel(server: McpServer): () => LoggingLevel | undefined {
  let state = states.get(server);
  if (state === undefined) {
    const created: LogState = { level: undefined };
    state = created;
    states.set(server, created);
    try {
      server.server.registerCapabilities({ logging: {} });
      server.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
        created.level = request.params.level;
        return {};
      });
    } catch {
      // Already connected: capabilities are fixed, so console lines are not streamed.
    }
  }
  const current = state;
  return () => current.level;
}
