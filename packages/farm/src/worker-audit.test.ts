// The worker's audit line: a farm job run by a real dcc-farm-worker process (real Redis, real MCP
// server over HTTP) is recorded by the worker with the job id of the server's submission line.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AuditLog, createAuditLog } from "@dcc/mcp-bridge/audit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FarmServer, pollUntil, startFarmServer } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import { startWorker, type WorkerProcess } from "./__fixtures__/worker-process.ts";

async function auditLines(folder: string, base: string): Promise<Array<Record<string, unknown>>> {
  const files = (await readdir(folder)).filter((name) => name.startsWith(`${base}.`));
  const lines: Array<Record<string, unknown>> = [];
  for (const name of files) {
    const text = await readFile(join(folder, name), "utf8");
    for (const line of text.split("\n")) if (line !== "") lines.push(JSON.parse(line));
  }
  return lines;
}

describe.skipIf(!redisTestsRun)(redisTitle("farm worker audit log"), { timeout: 300_000 }, () => {
  let redis: TestRedis;
  let folder: string;
  let worker: WorkerProcess | undefined;
  let server: FarmServer | undefined;
  let audit: AuditLog | undefined;
  const pool = "maya-audit";

  beforeAll(async () => {
    assertRedis();
    redis = await startRedis();
    folder = await mkdtemp(join(tmpdir(), "dcc-farm-audit-"));
    worker = await startWorker(redis.url, [
      "--pool",
      pool,
      "--audit-log",
      join(folder, "worker.jsonl"),
    ]);
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    await audit?.close();
    await worker?.stop();
    await redis?.stop();
    await rm(folder, { recursive: true, force: true });
  }, 120_000);

  it("writes the job's line from the worker under the submission's job id", async () => {
    audit = await createAuditLog({ file: join(folder, "server.jsonl") });
    server = await startFarmServer(redis.url, pool, undefined, { onToolCall: audit.record });
    const code = 'dispatch("polySphere", { name: "audited" }); return 1;';
    const started = await server.execute({ code, async: true });
    const jobId = started["job_id"] as string;
    expect(typeof jobId).toBe("string");
    const done = await pollUntil(
      () =>
        server?.execute({ job_id: jobId, job_action: "status" }) ??
        Promise.resolve({} as Record<string, unknown>),
      (value) => (value["job"] as { status?: string } | undefined)?.status === "completed",
    );
    expect(done["job"]).toMatchObject({ status: "completed" });
    // The worker closes its audit log on SIGTERM, so every line is on disk once it has exited.
    await worker?.stop();
    await audit.close();

    const [submitted] = (await auditLines(folder, "server")).filter(
      (line) => line["job_id"] === jobId,
    );
    expect(submitted).toMatchObject({
      event: "call",
      async: true,
      client: "-",
      client_claimed: "farm-test",
      script: code,
    });
    const ran = (await auditLines(folder, "worker")).filter((line) => line["job_id"] === jobId);
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({
      v: 2,
      event: "job",
      tool: "dcc_execute",
      dcc: "maya",
      client: "-",
      client_claimed: "farm-test",
      session: submitted?.["session"],
      async: true,
      script: code,
      script_sha256: submitted?.["script_sha256"],
      outcome: { success: true, errorCode: null, completion: "complete" },
      dispatches: 1,
      commands: { polySphere: 1 },
    });
  });
});
