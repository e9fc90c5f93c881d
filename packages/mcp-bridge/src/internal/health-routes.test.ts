import type { TestClient } from "@dcc/mcp-test-clients";
import { type ParsedFamily, parsePrometheusText, prometheusSample } from "@dcc/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { rawRequest } from "../__fixtures__/raw-http.ts";
import { call, connectClient, createTestAdapter } from "../__fixtures__/test-adapters.ts";
import {
  type CreateDccServerOptions,
  createDccServer,
  type DccServer,
} from "../create-dcc-server.ts";

const token = "s3cret-token-0123456789";
let servers: DccServer[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(options: CreateDccServerOptions): Promise<DccServer> {
  const server = await createDccServer({ port: 0, ...options });
  servers.push(server);
  return server;
}

function route(server: DccServer, path: string, headers: Record<string, string> = {}) {
  return rawRequest(new URL(path, server.url).href, { method: "GET", headers });
}

async function scrape(server: DccServer): Promise<ParsedFamily[]> {
  const response = await route(server, "/metrics");
  expect(response.status).toBe(200);
  expect(response.headers["content-type"]).toContain("text/plain");
  return parsePrometheusText(response.body);
}

describe("health and metrics routes", { timeout: 60_000 }, () => {
  it("answers /healthz, and /readyz follows the host status an adapter reports", async () => {
    const alpha = createTestAdapter("alpha");
    const beta = createTestAdapter("beta");
    const server = await serve({ adapters: [alpha, beta] });

    const health = await route(server, "/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    const ready = await route(server, "/readyz");
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      status: "ready",
      adapters: [
        { name: "alpha", state: "ready" },
        { name: "beta", state: "ready" },
      ],
    });

    beta.context?.reportHost({ state: "unavailable", reason: "beta exited (code 1); restarting" });
    const notReady = await route(server, "/readyz");
    expect(notReady.status).toBe(503);
    const body = JSON.parse(notReady.body) as { reasons: string[] };
    expect(body.reasons).toEqual(["beta: beta exited (code 1); restarting"]);
    expect(
      prometheusSample(await scrape(server), "dcc_mcp_adapter_status", {
        adapter: "beta",
        state: "unavailable",
      }),
    ).toBe("1");
    // Liveness does not depend on the hosts.
    expect((await route(server, "/healthz")).status).toBe(200);

    beta.context?.reportHost({ state: "ready" });
    expect((await route(server, "/readyz")).status).toBe(200);
    const families = await scrape(server);
    expect(
      prometheusSample(families, "dcc_mcp_adapter_status", { adapter: "beta", state: "ready" }),
    ).toBe("1");
    expect(
      prometheusSample(families, "dcc_mcp_adapter_status", {
        adapter: "beta",
        state: "unavailable",
      }),
    ).toBe("0");
  });

  it("is not ready while a host restarts, yet scripts still run against it", async () => {
    const alpha = createTestAdapter("alpha");
    const server = await serve({ adapters: [alpha] });
    const client = await connectClient(server.url as string);
    clients.push(client);

    alpha.context?.reportHost({ state: "restarting", reason: "alpha exited; restarting" });
    const restarting = await route(server, "/readyz");
    expect(restarting.status).toBe(503);
    expect(JSON.parse(restarting.body)).toMatchObject({
      status: "not ready",
      reasons: ["alpha: alpha exited; restarting"],
      adapters: [{ name: "alpha", state: "restarting", reason: "alpha: alpha exited; restarting" }],
    });
    expect(
      prometheusSample(await scrape(server), "dcc_mcp_adapter_status", {
        adapter: "alpha",
        state: "restarting",
      }),
    ).toBe("1");
    // Unlike an unavailable host, a restarting one takes scripts: their commands wait for it.
    expect(await call(client, "dcc_execute", { code: 'return dispatch("hello");' })).toMatchObject({
      success: true,
    });

    alpha.context?.reportHost({ state: "ready" });
    expect((await route(server, "/readyz")).status).toBe(200);
  });

  it("counts real tool calls by tool and outcome, with durations and process metrics", async () => {
    const server = await serve({ adapters: [createTestAdapter("alpha")] });
    const client = await connectClient(server.url as string);
    clients.push(client);
    expect(await call(client, "dcc_execute", { code: 'return dispatch("hello");' })).toMatchObject({
      success: true,
    });
    expect(await call(client, "dcc_execute", { code: 'return dispatch("hello");' })).toMatchObject({
      success: true,
    });
    const failed = await call(client, "dcc_execute", { code: 'dispatch("boom");' });
    expect(failed["success"]).toBe(false);
    await call(client, "dcc_search", { query: "hello" });

    const families = await scrape(server);
    const calls = { tool: "dcc_execute", dcc: "alpha" };
    expect(
      prometheusSample(families, "dcc_mcp_tool_calls_total", { ...calls, outcome: "success" }),
    ).toBe("2");
    expect(
      prometheusSample(families, "dcc_mcp_tool_calls_total", {
        ...calls,
        outcome: String(failed["errorCode"]),
      }),
    ).toBe("1");
    expect(
      prometheusSample(families, "dcc_mcp_tool_calls_total", {
        tool: "dcc_search",
        dcc: "alpha",
        outcome: "success",
      }),
    ).toBe("1");
    // The text parser drops the labels of histogram series, so the histogram is read from the
    // server's registry, which is what /metrics serialises.
    expect(families.some((family) => family.name === "dcc_mcp_tool_call_duration_seconds")).toBe(
      true,
    );
    const durations = await server.metrics
      ?.getSingleMetric("dcc_mcp_tool_call_duration_seconds")
      ?.get();
    const count = durations?.values.find(
      (value) =>
        (value as { metricName?: string }).metricName ===
          "dcc_mcp_tool_call_duration_seconds_count" && value.labels["tool"] === "dcc_execute",
    );
    expect(count?.value).toBe(3);
    expect(prometheusSample(families, "dcc_mcp_scripts_running", {})).toBe("0");
    expect(prometheusSample(families, "dcc_mcp_jobs", { state: "running" })).toBe("0");
    const workers = families.find((family) => family.name === "dcc_mcp_sandbox_workers");
    expect(workers?.metrics.map((metric) => metric.labels?.["state"]).sort()).toEqual([
      "busy",
      "idle",
      "starting",
    ]);
    // Standard process metrics come from the library.
    expect(families.some((family) => family.name === "process_cpu_user_seconds_total")).toBe(true);
    expect(families.some((family) => family.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("keeps each server's metrics apart in one process", async () => {
    const first = await serve({ adapters: [createTestAdapter("alpha")] });
    const second = await serve({ adapters: [createTestAdapter("alpha")] });
    const client = await connectClient(first.url as string);
    clients.push(client);
    await call(client, "dcc_execute", { code: 'return dispatch("hello");' });
    const outcome = { tool: "dcc_execute", dcc: "alpha", outcome: "success" };
    expect(prometheusSample(await scrape(first), "dcc_mcp_tool_calls_total", outcome)).toBe("1");
    expect(
      prometheusSample(await scrape(second), "dcc_mcp_tool_calls_total", outcome),
    ).toBeUndefined();
  });

  it("refuses all three without the token when one is set", async () => {
    const server = await serve({ adapters: [createTestAdapter("alpha")], token });
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789" }]) {
        const refused = await route(server, path, headers);
        expect(refused.status, path).toBe(401);
        expect(refused.body).not.toContain("dcc_mcp");
      }
      const allowed = await route(server, path, { authorization: `Bearer ${token}` });
      expect(allowed.status, path).toBe(200);
    }
  });

  it("answers only GET and HEAD", async () => {
    const server = await serve({ adapters: [createTestAdapter("alpha")] });
    const posted = await rawRequest(new URL("/metrics", server.url).href, { body: "{}" });
    expect(posted.status).toBe(405);
    expect(posted.headers["allow"]).toBe("GET, HEAD");
    const head = await rawRequest(new URL("/readyz", server.url).href, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });
});
