import { randomUUID } from "node:crypto";
import { parsePrometheusText } from "@dcc/test-support";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { createFarmJobQueue, type FarmJobQueue } from "./farm-job-queue.ts";
import { registerFarmMetrics } from "./register-farm-metrics.ts";

async function samples(registry: Registry): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const family of parsePrometheusText(await registry.metrics())) {
    for (const metric of family.metrics) {
      const labels = Object.entries(metric.labels ?? {})
        .map(([key, value]) => `${key}=${value}`)
        .join(",");
      found.set(`${family.name}{${labels}}`, metric.value ?? "");
    }
  }
  return found;
}

describe.skipIf(!redisTestsRun)(redisTitle("a farm queue's metrics"), { timeout: 120_000 }, () => {
  let redis: TestRedis;
  let queue: FarmJobQueue | undefined;

  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
  }, 120_000);
  afterAll(async () => {
    await queue?.close();
    await redis?.stop();
  }, 60_000);

  it("serves each pool's jobs by state, and says so when Redis stops answering", async () => {
    queue = createFarmJobQueue({
      redis: { url: redis.url },
      pools: ["maya", "blender"],
      commandTimeoutMs: 2000,
    });
    const registry = new Registry();
    registerFarmMetrics(registry, queue);
    // No worker takes them: they wait.
    for (let index = 0; index < 3; index++) {
      await queue.submit({ jobId: randomUUID(), dccName: "maya", code: "return 1;" });
    }
    await queue.submit({ jobId: randomUUID(), dccName: "blender", code: "return 1;" });

    const up = await samples(registry);
    expect(up.get("dcc_farm_jobs{pool=maya,state=waiting}")).toBe("3");
    expect(up.get("dcc_farm_jobs{pool=blender,state=waiting}")).toBe("1");
    expect(up.get("dcc_farm_jobs{pool=maya,state=active}")).toBe("0");
    expect(up.get("dcc_farm_jobs{pool=maya,state=completed}")).toBe("0");
    expect(up.get("dcc_farm_queue_up{}")).toBe("1");

    await redis.stop();
    const down = await samples(registry);
    expect(down.get("dcc_farm_queue_up{}")).toBe("0");
    // The last good counts stay, marked stale by the up gauge.
    expect(down.get("dcc_farm_jobs{pool=maya,state=waiting}")).toBe("3");
    await expect(queue.counts()).rejects.toMatchObject({ code: "REDIS_UNAVAILABLE" });
  });
});
