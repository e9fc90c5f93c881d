// The operations routes beside the MCP endpoint: liveness, readiness and Prometheus metrics.
// Each is a cheap read of state the server already keeps, with no side effect.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DccServerAdapter } from "../dcc-server-adapter.ts";
import type { ServerMetrics } from "./server-metrics.ts";

/** The paths served by {@link serveHealthRoute}. */
export const healthPaths: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

/** What the routes read. */
export interface HealthRouteState {
  adapters: readonly DccServerAdapter[];
  metrics: ServerMetrics;
  closing: boolean;
}

/** Answers a request for one of {@link healthPaths}. */
export async function serveHealthRoute(
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
  state: HealthRouteState,
): Promise<void> {
  const method = request.method ?? "GET";
  if (method !== "GET" && method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    return sendJson(response, 405, { error: `Method not allowed on ${path}: use GET` });
  }
  response.setHeader("Cache-Control", "no-store");
  if (path === "/healthz") return sendJson(response, 200, { status: "ok" });
  if (path === "/readyz") {
    const adapters = state.adapters.map((adapter) => ({
      name: adapter.name,
      ...adapter.status,
    }));
    const reasons = adapters.flatMap((adapter) =>
      adapter.state === "ready"
        ? []
        : ["reason" in adapter ? adapter.reason : `${adapter.name} is ${adapter.state}`],
    );
    if (state.closing) reasons.unshift("The server is shutting down");
    return reasons.length === 0
      ? sendJson(response, 200, { status: "ready", adapters })
      : sendJson(response, 503, { status: "not ready", reasons, adapters });
  }
  const registry = state.metrics.registry;
  const text = await registry.metrics();
  response.statusCode = 200;
  response.setHeader("Content-Type", registry.contentType);
  response.end(method === "HEAD" ? undefined : text);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(body));
}
