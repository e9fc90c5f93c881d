// Approval rules end to end: real QuickJS scripts on an executor built from an in-memory scene
// adapter, with a test approver in the place a server's question to its client takes.
import { afterAll, describe, expect, it } from "vitest";
import { aborted, approvalScene, recordingApprover } from "./__fixtures__/approval-scene.ts";
import { deferred } from "./__fixtures__/executor-under-test.ts";
import type { ApprovalRule } from "./approval.ts";
import { approvalRuleNames, commandApprovalRule } from "./approval.ts";
import { type AdapterApprovalOptions, createAdapterExecutor } from "./create-adapter-executor.ts";
import type { DccApiExecutor } from "./dcc-api-executor.ts";
import type { ExecuteResult } from "./execute-result.ts";
import { SandboxPool } from "./sandbox-pool.ts";

const pool = new SandboxPool({ size: 2 });
afterAll(() => pool.close());

function sceneExecutor(approval: AdapterApprovalOptions = { ask: ["delete", "overwrite"] }): {
  scene: ReturnType<typeof approvalScene>;
  executor: DccApiExecutor;
} {
  const scene = approvalScene();
  return { scene, executor: createAdapterExecutor(scene, { pool, approval }) };
}

/** The script's caught dispatch error, as the script saw it. */
const catchDelete =
  'try { dispatch("delete", { names: ["pSphere1"] }); return "ran"; } catch (e) { return { name: e.name, code: e.code, command: e.command, completion: e.completion, data: e.data, message: e.message }; }';

function output(result: ExecuteResult): unknown {
  if (!result.success)
    throw new Error(`expected a success, got ${result.errorCode}: ${result.error}`);
  return result.output;
}

describe("approval rules", { timeout: 60_000 }, () => {
  it("runs a command once the person says yes, and records the question and who answered", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover();
    const result = await executor.execute(
      'return dispatch("delete", { names: ["pSphere1", "pSphere2"] })',
      { approve },
    );
    expect(output(result)).toBe(2);
    expect(scene.nodes).toEqual(["pSphere3"]);
    expect(approve.questions).toHaveLength(1);
    expect(approve.questions[0]).toMatchObject({
      dccName: "scene",
      rule: "delete",
      ruleDescription: "deleting nodes",
      command: "delete",
      summary: "delete 2 nodes: pSphere1, pSphere2",
    });
    // Answered: the question's signal is let go.
    expect(approve.questions[0]?.signal.aborted).toBe(true);
    expect(result.stats.approvals).toEqual([
      {
        rule: "delete",
        command: "delete",
        summary: "delete 2 nodes: pSphere1, pSphere2",
        answer: "approved",
        by: "tester",
        waitedMs: expect.any(Number),
      },
    ]);
    expect(result).toMatchObject({ transaction: { undoStep: "scene script" } });
  });

  it("makes a declined command a catchable APPROVAL_DENIED that names the rule; the handler never ran", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover(async () => ({
      approved: false,
      reason: "declined",
      by: "artist",
    }));
    const result = await executor.execute(catchDelete, { approve });
    expect(output(result)).toMatchObject({
      name: "CommandError",
      code: "APPROVAL_DENIED",
      command: "delete",
      completion: "not_started",
      data: { rule: "delete", reason: "declined" },
    });
    const { message } = output(result) as { message: string };
    expect(message).toContain("delete 1 node: pSphere1");
    expect(message).toContain("rule 'delete'");
    expect(message).toContain("declined");
    expect(scene.ran).toEqual([]);
    expect(scene.nodes).toContain("pSphere1");
    expect(result.stats.approvals).toEqual([
      expect.objectContaining({ rule: "delete", answer: "declined", by: "artist" }),
    ]);
  });

  it("ends a script that does not catch the denial with SCRIPT_ERROR naming the code", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover(async () => ({ approved: false, reason: "declined" }));
    const result = await executor.execute(
      'dispatch("create", { name: "extra" }); dispatch("delete", { names: ["pSphere1"] }); return 1',
      { approve },
    );
    expect(result).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(result.success || result.error).toContain("APPROVAL_DENIED");
    // The script's other change was rolled back as any failed script's.
    expect(result).toMatchObject({ rollback: { rolledBack: true } });
    expect(scene.nodes).toEqual(["pSphere1", "pSphere2", "pSphere3"]);
  });

  it("counts an approver that rejects, or throws, as a cancelled answer", async () => {
    for (const answer of [
      async () => {
        throw new Error("the client went away");
      },
      () => {
        throw new Error("could not even ask");
      },
    ]) {
      const { scene, executor } = sceneExecutor();
      const result = await executor.execute(catchDelete, { approve: answer });
      expect(output(result)).toMatchObject({
        code: "APPROVAL_DENIED",
        data: { rule: "delete", reason: "cancelled" },
      });
      expect(scene.ran).toEqual([]);
    }
  });

  it("denies with reason timeout when nobody answers within approval.timeoutSecs, and withdraws the question", async () => {
    const { scene, executor } = sceneExecutor({ ask: ["delete"], timeoutSecs: 0.2 });
    // Never answers on its own; settles only once its question is withdrawn.
    const approve = recordingApprover(async (question) => {
      await aborted(question.signal);
      return { approved: true };
    });
    const result = await executor.execute(catchDelete, { approve, timeoutSecs: 30 });
    expect(output(result)).toMatchObject({
      code: "APPROVAL_DENIED",
      data: { rule: "delete", reason: "timeout" },
    });
    expect(approve.questions[0]?.signal.aborted).toBe(true);
    expect(scene.ran).toEqual([]);
    expect(result.stats.approvals).toEqual([
      expect.objectContaining({ rule: "delete", answer: "timeout" }),
    ]);
  });

  it("denies with reason no-one-to-ask without an approver", async () => {
    const { scene, executor } = sceneExecutor();
    const result = await executor.execute(catchDelete);
    expect(output(result)).toMatchObject({
      code: "APPROVAL_DENIED",
      data: { rule: "delete", reason: "no-one-to-ask" },
    });
    expect((output(result) as { message: string }).message).toContain("pre-approval");
    expect(scene.ran).toEqual([]);
    expect(result.stats.approvals).toEqual([
      expect.objectContaining({ rule: "delete", answer: "no-one-to-ask" }),
    ]);
  });

  it("runs a preapproved rule's commands without asking, and records the pre-approval", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover();
    const result = await executor.execute('return dispatch("delete", { names: ["pSphere1"] })', {
      preapproved: ["delete"],
      approve,
    });
    expect(output(result)).toBe(1);
    expect(scene.ran).toEqual(["delete pSphere1"]);
    expect(approve.questions).toEqual([]);
    expect(result.stats.approvals).toEqual([
      {
        rule: "delete",
        command: "delete",
        summary: "delete 1 node: pSphere1",
        answer: "preapproved",
        waitedMs: expect.any(Number),
      },
    ]);
  });

  it("asks once for twenty commands under one rule, and once more for another rule", async () => {
    const names = Array.from({ length: 20 }, (_, index) => `n${index}`);
    const scene = approvalScene({ nodes: names });
    const executor = createAdapterExecutor(scene, {
      pool,
      approval: { ask: ["delete", "overwrite"] },
    });
    const approve = recordingApprover();
    const result = await executor.execute(
      'const names = dispatch("ls"); let deleted = 0;\n' +
        'for (const name of names) deleted += dispatch("delete", { names: [name] });\n' +
        // Awaited together: dispatch is synchronous in the guest, so these still go one by one.
        'await Promise.all(["a", "b"].map((name) => dispatch("create", { name })));\n' +
        'await Promise.all(["a", "b"].map((name) => dispatch("delete", { names: [name] })));\n' +
        'dispatch("save", { path: "shot.mb" }); dispatch("save", { path: "shot.mb" });\n' +
        "return deleted;",
      { approve },
    );
    expect(output(result)).toBe(20);
    expect(scene.nodes).toEqual([]);
    expect(approve.questions.map((question) => [question.rule, question.summary])).toEqual([
      ["delete", "delete 1 node: n0"],
      ["overwrite", "overwrite shot.mb"],
    ]);
    expect(result.stats.approvals?.map((approval) => approval.rule)).toEqual([
      "delete",
      "overwrite",
    ]);
    expect(result.stats.commands).toMatchObject({ delete: 22, save: 2 });
  });

  it("asks nothing for a command outside every rule, or a call its rule does not cover", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover();
    const result = await executor.execute(
      'dispatch("create", { name: "extra" }); dispatch("delete", { names: [] });\n' +
        'dispatch("save", { path: "new.mb" }); return dispatch("ls").length',
      { approve },
    );
    expect(output(result)).toBe(4);
    expect(approve.questions).toEqual([]);
    expect(result.stats.approvals).toBeUndefined();
    expect(scene.ran).toEqual(["create extra", "delete ", "save new.mb"]);
  });

  it("asks nothing for a shared rule that is not on", async () => {
    const { scene, executor } = sceneExecutor({ ask: ["overwrite"] });
    const approve = recordingApprover();
    const result = await executor.execute('return dispatch("delete", { names: ["pSphere1"] })', {
      approve,
    });
    expect(output(result)).toBe(1);
    expect(approve.questions).toEqual([]);
    expect(scene.ran).toEqual(["delete pSphere1"]);
  });

  it("asks with the command's name when the rule cannot tell what a call touches", async () => {
    const throwing: ApprovalRule = {
      name: "publish",
      description: "publishing to the pipeline",
      commands: ["publish"],
      covers: () => {
        throw new Error("the pipeline database is down");
      },
    };
    const { scene, executor } = sceneExecutor({ ask: ["publish"], rules: [throwing] });
    const approve = recordingApprover();
    const result = await executor.execute('return dispatch("publish", { shot: 10 })', {
      approve,
    });
    expect(output(result)).toBe(true);
    expect(approve.questions.map((question) => question.summary)).toEqual(["publish"]);
    expect(scene.ran).toEqual(['publish {"shot":10}']);
  });

  it("still runs a call its denied rule does not cover (a save to a new file after a refused overwrite)", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover(async () => ({ approved: false, reason: "declined" }));
    const result = await executor.execute(
      'let first; try { dispatch("save", { path: "shot.mb" }) } catch (e) { first = e.data.reason }\n' +
        'const second = dispatch("save", { path: "shot_v2.mb" });\n' +
        'let third; try { dispatch("save", { path: "shot.mb" }) } catch (e) { third = e.message }\n' +
        "return { first, second, third };",
      { approve },
    );
    expect(output(result)).toMatchObject({ first: "declined", second: "shot_v2.mb" });
    // The same answer for the rest of the script: asked once.
    expect((output(result) as { third: string }).third).toContain("overwrite shot.mb");
    expect(approve.questions).toHaveLength(1);
    expect(scene.ran).toEqual(["save shot_v2.mb"]);
  });

  it("withdraws an open question when the script is cancelled, and rolls the script back", async () => {
    const { scene, executor } = sceneExecutor();
    const asked = deferred<AbortSignal>();
    const approve = recordingApprover(async (question) => {
      asked.resolve(question.signal);
      await aborted(question.signal);
      return { approved: false, reason: "cancelled" };
    });
    const controller = new AbortController();
    const running = executor.execute(
      'dispatch("create", { name: "extra" }); dispatch("delete", { names: ["pSphere1"] }); return 1',
      { approve, signal: controller.signal, timeoutSecs: 30 },
    );
    const signal = await asked.promise;
    expect(signal.aborted).toBe(false);
    controller.abort("the user pressed stop");
    const result = await running;
    expect(signal.aborted).toBe(true);
    expect(result).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
      rollback: { rolledBack: true },
    });
    expect(scene.ran).toEqual(["create extra"]);
    expect(scene.ended).toEqual(["rollback"]);
    expect(scene.nodes).toEqual(["pSphere1", "pSphere2", "pSphere3"]);
    expect(result.stats.approvals).toEqual([
      expect.objectContaining({ rule: "delete", answer: "cancelled" }),
    ]);
  });

  it("summarises a custom rule's call without arguments by the command's name alone", async () => {
    const publish = commandApprovalRule({ name: "publish", commands: ["publish"] });
    const { executor } = sceneExecutor({ ask: ["publish"], rules: [publish] });
    const approve = recordingApprover();
    await executor.execute('return dispatch("publish")', { approve });
    expect(approve.questions.map((question) => question.summary)).toEqual(["publish"]);
  });

  it("builds a custom rule from command names, summarised with the call's arguments", async () => {
    const publish = commandApprovalRule({ name: "publish", commands: ["publish"] });
    expect(publish).toMatchObject({ name: "publish", description: "running publish" });
    const { scene, executor } = sceneExecutor({ ask: ["publish"], rules: [publish] });
    const approve = recordingApprover();
    const result = await executor.execute(
      'dispatch("publish", { shot: 10, notes: "x".repeat(300) }); return dispatch("publish")',
      { approve },
    );
    expect(output(result)).toBe(true);
    const summary = approve.questions[0]?.summary ?? "";
    expect(summary.startsWith('publish {"shot":10,"notes":"xxx')).toBe(true);
    expect(summary.endsWith("…")).toBe(true);
    expect(scene.ran).toHaveLength(2);
    expect(approvalRuleNames).toEqual({
      delete: "delete",
      overwrite: "overwrite",
      open: "open",
      render: "render",
    });
  });
});

describe("commandApprovalRule", () => {
  it("covers every call of its commands, summarised with the call's arguments", () => {
    const rule = commandApprovalRule({ name: "publish", commands: ["exportAll", "file"] });
    expect(rule).toMatchObject({
      name: "publish",
      description: "running exportAll, file",
      commands: ["exportAll", "file"],
    });
    const signal = new AbortController().signal;
    const summary = (command: string, args: unknown) => rule.covers?.({ command, args, signal });
    expect(summary("exportAll", undefined)).toBe("exportAll");
    expect(summary("exportAll", null)).toBe("exportAll");
    expect(summary("file", { save: true, path: "a.mb" })).toBe('file {"save":true,"path":"a.mb"}');
    const long = summary("file", { path: "p".repeat(400) }) as string;
    expect(long).toHaveLength("file ".length + 160);
    expect(long.endsWith("…")).toBe(true);
  });

  it("takes a description, and keeps its own copy of the commands", () => {
    const commands = ["exportAll"];
    const rule = commandApprovalRule({ name: "publish", commands, description: "publishing" });
    commands.push("file");
    expect(rule.description).toBe("publishing");
    expect(rule.commands).toEqual(["exportAll"]);
    expect(Object.isFrozen(rule)).toBe(true);
  });
});

describe("the script's clock while a question is open", { timeout: 60_000 }, () => {
  it("does not run: a script of 1 s whose question is answered after 1.5 s still succeeds", async () => {
    const { scene, executor } = sceneExecutor();
    const approve = recordingApprover(async () => {
      // Past the script's whole timeout, had the clock run.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { approved: true };
    });
    const result = await executor.execute(
      'dispatch("delete", { names: ["pSphere1"] }); return dispatch("ls")',
      { approve, timeoutSecs: 1 },
    );
    expect(output(result)).toEqual(["pSphere2", "pSphere3"]);
    expect(scene.ran).toEqual(["delete pSphere1"]);
  });

  it("runs again once answered: a script that then loops past its deadline times out", async () => {
    const { executor } = sceneExecutor();
    const approve = recordingApprover(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { approved: true };
    });
    const result = await executor.execute(
      'dispatch("delete", { names: ["pSphere1"] }); for (;;) {}',
      { approve, timeoutSecs: 1 },
    );
    expect(result).toMatchObject({ success: false, errorCode: "TIMEOUT", limit: "timeout" });
    expect(result.stats.approvals).toEqual([expect.objectContaining({ answer: "approved" })]);
  });

  it("runs while a rule looks at a call: a rule that hangs is bounded by the script's timeout", async () => {
    let signal: AbortSignal | undefined;
    const hanging: ApprovalRule = {
      name: "publish",
      description: "publishing",
      commands: ["publish"],
      // Asks the host, which never answers; gives up only when its signal aborts.
      covers: async (call) => {
        signal = call.signal;
        await aborted(call.signal);
        return "publish";
      },
    };
    const { scene, executor } = sceneExecutor({ ask: ["publish"], rules: [hanging] });
    const approve = recordingApprover();
    const result = await executor.execute('return dispatch("publish")', {
      approve,
      timeoutSecs: 1,
    });
    expect(result).toMatchObject({ success: false, errorCode: "TIMEOUT" });
    expect(signal?.aborted).toBe(true);
    expect(scene.ran).toEqual([]);
  });
});
