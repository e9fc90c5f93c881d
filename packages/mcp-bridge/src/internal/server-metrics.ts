// The Prometheus metrics of one HTTP server, on a registry of its own so several servers in one
// process never clash. Gauges read their values when scraped, so serving them costs nothing
// between scrapes and nothing is kept per call but counters.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DccAdapterStatus, DccServerAdapter } from "../dcc-server-adapter.ts";
import type { DccToolCallEvent } from "../dcc-tool-call-event.ts";
import type { JobManager } from "../job-manager.ts";

/** Most distinct outcome labels kept; later ones count as `OTHER` so the series stay bounded. */
const maxOutcomes = 64;
const adapterStates: ReadonlyArray<DccAdapterStatus["state"]> = [
  "ready",
  "restarting",
  "unavailable",
  "failed",
  "closed",
];
const workerStates = ["idle", "busy", "starting"] as const;
const jobStates = ["pending", "running", "completed", "failed", "cancelled"] as const;

/** What the metrics read when scraped. */
export interface ServerMetricsSources {
  jobs: JobManager;
  adapters: readonly DccServerAdapter[];
}

/** The registry and the call counters of one server. */
export class ServerMetrics {
  readonly registry: Registry = new Registry();
  readonly #calls: Counter<"tool" | "dcc" | "outcome">;
  readonly #durations: Histogram<"tool" | "dcc">;
  readonly #outcomes = new Set<string>();

  constructor(sources: ServerMetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#calls = new Counter({
      name: "dcc_mcp_tool_calls_total",
      help: "Finished tool calls by tool, DCC and outcome (success, or the envelope's errorCode).",
      labelNames: ["tool", "dcc", "outcome"],
      registers,
    });
    this.#durations = new Histogram({
      name: "dcc_mcp_tool_call_duration_seconds",
      help: "Time from a tool call's start to its answer (for an async call: until the job started).",
      labelNames: ["tool", "dcc"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    new Gauge({
      name: "dcc_mcp_scripts_running",
      help: "Script calls running now, synchronous and async.",
      registers,
      collect() {
        this.set(sources.jobs.liveCount);
      },
    });
    new Gauge({
      name: "dcc_mcp_sandbox_workers",
      help: "Sandbox worker threads per adapter, by state.",
      labelNames: ["adapter", "state"],
      registers,
      collect() {
        this.reset();
        for (const adapter of sources.adapters) {
          const stats = adapter.executor?.pool.stats;
          for (const state of workerStates) {
            this.set({ adapter: adapter.name, state }, stats?.[state] ?? 0);
          }
        }
      },
    });
    new Gauge({
      name: "dcc_mcp_adapter_status",
      help: "1 for each adapter's current host status (ready, unavailable, failed, closed), else 0.",
      labelNames: ["adapter", "state"],
      registers,
      collect() {
        this.reset();
        for (const adapter of sources.adapters) {
          const current = adapter.status.state;
          for (const state of adapterStates) {
            this.set({ adapter: adapter.name, state }, state === current ? 1 : 0);
          }
        }
      },
    });
    new Gauge({
      name: "dcc_mcp_jobs",
      help: "Async job records the server's job store holds, by state.",
      labelNames: ["state"],
      registers,
      collect() {
        const counts = new Map<string, number>(jobStates.map((state) => [state, 0]));
        for (const record of sources.jobs.store.list()) {
          counts.set(record.status, (counts.get(record.status) ?? 0) + 1);
        }
        for (const [state, count] of counts) this.set({ state }, count);
      },
    });
  }

  /** Counts one finished tool call. */
  record(event: DccToolCallEvent): void {
    // A job's end is not a call: its call was counted when it was submitted.
    if (event.phase === "job") return;
    const labels = { tool: event.tool, dcc: event.dccName };
    this.#calls.inc({ ...labels, outcome: this.#outcome(event) });
    this.#durations.observe(labels, event.durationMs / 1000);
  }

  #outcome(event: DccToolCallEvent): string {
    const result = event.result as { success?: unknown; errorCode?: unknown };
    if (result.success === true) return "success";
    const code = typeof result.errorCode === "string" ? result.errorCode : "ERROR";
    if (this.#outcomes.has(code)) return code;
    if (this.#outcomes.size >= maxOutcomes) return "OTHER";
    this.#outcomes.add(code);
    return code;
  }
}
