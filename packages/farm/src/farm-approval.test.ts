// Approval rules on a farm, end to end: a dcc-farm-worker process started with `--ask` (real
// redis-server, the simulated Maya) denies a job's commands under the rule unless the submission
// pre-approved it; bad `--ask` flags stop the worker at start-up.
import { randomUUID } from "node:crypto";
import type { JobRecord } from "@dcc/mcp-bridge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil } from "./__fixtures__/mcp-client.ts";
import {
  assertRedis,
  redisTestsRun,
  redisTitle,
  startRedis,
  type TestRedis,
} from "./__fixtures__/redis-server.ts";
import {
  runRefusedWorker,
  startWorker,
  type WorkerProcess,
} from "./__fixtures__/worker-process.ts";
import { createFarmJobQueue, type FarmJobQueue } from "./farm-job-queue.ts";

// The simulated Maya's own `delete` rule, and a custom rule over the same command.
const setups = [
  { rule: "delete", flags: ["--ask", "delete"] },
  { rule: "remove-nodes", flags: ["--ask", "remove-nodes", "--ask-rule", "remove-nodes=delete"] },
];
const finished = (record: JobRecord | undefined) => record?.finishedAt !== undefined;

/** Makes a sphere, tries to delete it, and says what happened and whether it still exists. */
const deleteScript = (name: string): string => `
  dispatch("polySphere", { name: "${name}" });
  let denied = null;
  try {
    dispatch("delete", "${name}");
  } catch (e) {
    denied = { code: e.code, completion: e.completion, data: e.data };
  }
  return { denied, exists: dispatch("objExists", "${name}") };
`;

describe.skipIf(!redisTestsRun).each(setups)(
  redisTitle("a farm worker started with --ask $rule"),
  { timeout: 300_000 },
  ({ rule, flags }) => {
    let redis: TestRedis;
    let queue: FarmJobQueue;
    let worker: WorkerProcess | undefined;
    const pool = "maya-ask";

    beforeAll(async () => {
      assertRedis();
      redis = await startRedis();
      queue = createFarmJobQueue({ redis: { url: redis.url }, pools: { maya: pool } });
      worker = await startWorker(redis.url, ["--pool", pool, ...flags]);
    }, 300_000);

    afterAll(async () => {
      await worker?.stop();
      await queue?.close();
      await redis?.stop();
    }, 120_000);

    const run = async (
      code: string,
      preapproved?: string[],
    ): Promise<NonNullable<JobRecord["result"]>> => {
      const record = await queue.submit({
        jobId: randomUUID(),
        dccName: "maya",
        code,
        timeoutSecs: 120,
        ...(preapproved === undefined ? {} : { preapproved }),
      });
      const done = await pollUntil(() => queue.get(record.jobId), finished);
      expect(done).toMatchObject({ status: expect.stringMatching(/completed|failed/) });
      return done?.result as NonNullable<JobRecord["result"]>;
    };

    it("denies a job's command under the rule: nobody to ask, the node stays, the script catches it", async () => {
      const result = await run(deleteScript("kept"));
      expect(result).toMatchObject({
        success: true,
        output: {
          denied: {
            code: "APPROVAL_DENIED",
            completion: "not_started",
            data: { rule, reason: "no-one-to-ask" },
          },
          exists: true,
        },
      });
      expect((result["stats"] as { approvals?: unknown }).approvals).toEqual([
        expect.objectContaining({ rule, command: "delete", answer: "no-one-to-ask" }),
      ]);
    });

    it("fails a job that does not catch the denial, naming the rule", async () => {
      const result = await run(
        'dispatch("polySphere", { name: "uncaught" }); dispatch("delete", "uncaught"); return "ran";',
      );
      // An uncaught error fails the script as any error does; the denial is its error.
      expect(result).toMatchObject({
        success: false,
        errorCode: "SCRIPT_ERROR",
        error: expect.stringContaining("CommandError (APPROVAL_DENIED, from delete)"),
        rollback: { rolledBack: true },
      });
      expect(result["error"]).toContain(`rule '${rule}'`);
      // The script failed, so its sphere was rolled back; the delete never ran either way.
      expect(await run('return dispatch("objExists", "uncaught");')).toMatchObject({
        success: true,
        output: false,
      });
    });

    it("runs the command when the submission pre-approved the rule, and records it", async () => {
      const result = await run(deleteScript("gone"), [rule]);
      expect(result).toMatchObject({ success: true, output: { denied: null, exists: false } });
      expect((result["stats"] as { approvals?: unknown }).approvals).toEqual([
        expect.objectContaining({ rule, command: "delete", answer: "preapproved" }),
      ]);
    });

    it("runs a job without commands under the rule as before", async () => {
      const result = await run(
        'dispatch("polyCube", { name: "box" }); return dispatch("objExists", "box");',
      );
      expect(result).toMatchObject({ success: true, output: true });
      expect(result["stats"]).not.toHaveProperty("approvals");
    });

    it("refuses a malformed pre-approval at submission, queueing nothing", async () => {
      const jobId = randomUUID();
      await expect(
        queue.submit({ jobId, dccName: "maya", code: "return 1;", preapproved: ["Delete Nodes"] }),
      ).rejects.toMatchObject({
        code: "INVALID_SUBMISSION",
        message: expect.stringContaining('preapproved[0] "Delete Nodes" is not a rule name'),
      });
      await expect(
        queue.submit({
          jobId,
          dccName: "maya",
          code: "return 1;",
          preapproved: "delete" as unknown as string[],
        }),
      ).rejects.toThrow(/preapproved must be an array of approval rule names/);
      expect(await queue.get(jobId)).toBeUndefined();
    });
  },
);

describe("dcc-farm-worker's approval flags", { timeout: 300_000 }, () => {
  it("refuses an unknown --ask rule at start-up, naming the known ones", async () => {
    const refused = await runRefusedWorker(["--dcc", "maya", "--ask", "delete,remove-everything"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'Unknown approval rule "remove-everything" in --ask: use one of delete, overwrite, open, render',
    );
  });

  it("refuses an unknown rule in DCC_MCP_ASK the same way", async () => {
    const refused = await runRefusedWorker(["--dcc", "maya"], { DCC_MCP_ASK: "nuke" });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Unknown approval rule "nuke" in DCC_MCP_ASK');
  });

  it("refuses a custom rule over commands the DCC does not have, after starting it", async () => {
    const refused = await runRefusedWorker([
      "--dcc",
      "maya",
      "--ask",
      "publish",
      "--ask-rule",
      "publish=exportEverything",
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "Approval rule 'publish' names commands maya does not have: exportEverything",
    );
  });
});
