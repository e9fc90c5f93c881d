// The operations routes beside the MCP endpoint: liveness, readiness and Prometheus metrics.
// Each is a cheap read of state the server already keeps, with no side effect.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DccServerAdapter } from "../dcc-server-adapter.ts";
import type { JobQueue } from "../job-queue.ts";
import type { ServerMetrics } from "./server-metrics.ts";

/** The paths served by {@link serveHealthRoute}. */
export const healthPaths: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

/** What the routes read. */
export interface HealthRouteState {
  adapters: readonly DccServerAdapter[];
  metrics: ServerMetrics;
  closing: boolean;
  /** The server's job queue, when it has one: ready only while it answers. */
  queue?: JobQueue | undefined;
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
    const queueProblem = await queueReadiness(state.queue);
    if (queueProblem !== undefined) reasons.push(queueProblem);
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

/** Why the queue is not ready, or undefined; bounded even when the queue's own check is not. */
async function queueReadiness(queue: JobQueue | undefined): Promise<string | undefined> {
  if (queue?.ready === undefined) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.ready(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${queueReadyMs} ms`)),
          queueReadyMs,
        );
      }),
    ]);
    return undefined;
  } catch (error) {
    return `The job queue is unavailable: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

const queueReadyMs = 10_000;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(body));
}
