import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** Options for {@link startMinimalServer}. */
export interface MinimalServerOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to bind; loopback by default. */
  host?: string;
}

/** A running server. */
export interface MinimalServerHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  url: string;
  /** Stops accepting connections and closes every session. */
  close(): Promise<void>;
}

/**
 * Starts an MCP server over Streamable HTTP that answers `initialize` and lists no tools yet.
 * It is the placeholder the reference server replaces once the bridge exists.
 */
export async function startMinimalServer(
  options: MinimalServerOptions,
): Promise<MinimalServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    if (!request.url?.startsWith("/mcp")) {
      response.writeHead(404).end();
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (existing) {
      void existing.handleRequest(request, response);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    const server = new McpServer({ name: "dcc-reference-server", version: "0.1.0" });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(options.port, host, resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/mcp`,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
