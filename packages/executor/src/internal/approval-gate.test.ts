// The approval gate on its own: concurrent checks of one rule, the clock while a question is
// open, answers an approver should not give, withdrawal, and rules that share a command.
import { describe, expect, it } from "vitest";
import { aborted, recordingApprover } from "../__fixtures__/approval-scene.ts";
import type { ApprovalAnswer, ApprovalRule, Approver } from "../approval.ts";
import { commandApprovalRule } from "../approval.ts";
import { CommandError } from "../command-error.ts";
import { ApprovalGate, type ApprovalGateOptions } from "./approval-gate.ts";
import { ScriptClock } from "./script-clock.ts";

const deleteRule: ApprovalRule = {
  name: "delete",
  description: "deleting nodes",
  commands: ["delete"],
  covers: ({ args }) => {
    const names = (args as { names: string[] }).names;
    return names.length === 0 ? undefined : `delete ${names.join(", ")}`;
  },
};

function gate(
  options: Partial<ApprovalGateOptions> & { approve: Approver | undefined },
): ApprovalGate & { clock: ScriptClock } {
  const clock = options.clock ?? new ScriptClock(Date.now() + 60_000);
  const made = new ApprovalGate({
    dccName: "scene",
    rules: [deleteRule],
    timeoutMs: 30_000,
    preapproved: [],
    stop: new AbortController().signal,
    ...options,
    clock,
  });
  return Object.assign(made, { clock });
}

describe("ApprovalGate", () => {
  it("looks only at the commands of its rules", () => {
    const checks = gate({ approve: recordingApprover() });
    expect(checks.guards("delete")).toBe(true);
    expect(checks.guards("create")).toBe(false);
    // The common case answers at once, without a promise.
    expect(checks.check("create", {})).toBeUndefined();
  });

  it("asks one question for twenty concurrent calls under one rule", async () => {
    const approve = recordingApprover(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { approved: true, by: "lead" };
    });
    const checks = gate({ approve });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => checks.check("delete", { names: [`n${index}`] })),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, () => undefined));
    expect(approve.questions.map((question) => question.summary)).toEqual(["delete n0"]);
    expect(checks.records()).toEqual([
      expect.objectContaining({ rule: "delete", answer: "approved", by: "lead" }),
    ]);
  });

  it("gives twenty concurrent calls one denial", async () => {
    const approve = recordingApprover(async () => ({ approved: false, reason: "declined" }));
    const checks = gate({ approve });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => checks.check("delete", { names: [`n${index}`] })),
    );
    expect(approve.questions).toHaveLength(1);
    for (const [index, answer] of answers.entries()) {
      expect(answer).toBeInstanceOf(CommandError);
      expect(answer).toMatchObject({
        code: "APPROVAL_DENIED",
        completion: "not_started",
        data: { rule: "delete", reason: "declined" },
      });
      // Each call's refusal says what that call would have touched.
      expect(answer?.message).toContain(`delete n${index}`);
    }
    expect(checks.records()).toHaveLength(1);
  });

  it("stops the script's clock while a question is open, and starts it again after", async () => {
    const clock = new ScriptClock(Date.now() + 60_000);
    let whileAsked = 0;
    let whileLooking = 0;
    const rule: ApprovalRule = {
      ...deleteRule,
      covers: (call) => {
        whileLooking = clock.deadline;
        return deleteRule.covers?.(call);
      },
    };
    const approve = recordingApprover(async () => {
      whileAsked = clock.deadline;
      return { approved: true };
    });
    const checks = gate({ approve, clock, rules: [rule] });
    expect(await checks.check("delete", { names: ["a"] })).toBeUndefined();
    // Looking at the call is the script's time; the question is the person's.
    expect(whileLooking).toBe(clock.base);
    expect(whileAsked - clock.base).toBeGreaterThan(24 * 3600_000);
    expect(clock.deadline).toBeGreaterThanOrEqual(clock.base);
    expect(clock.deadline - clock.base).toBeLessThan(24 * 3600_000);
  });

  it("counts an answer that is not one as cancelled", async () => {
    const odd = [undefined, null, "yes", { approved: "yes" }, { approved: false }];
    for (const answer of odd) {
      const checks = gate({ approve: async () => answer as unknown as ApprovalAnswer });
      const denied = await checks.check("delete", { names: ["a"] });
      expect(denied).toMatchObject({
        code: "APPROVAL_DENIED",
        data: { rule: "delete", reason: "cancelled" },
      });
      expect(denied?.message).not.toContain("undefined");
      expect(checks.records()).toEqual([expect.objectContaining({ answer: "cancelled" })]);
    }
  });

  it("words a denial from its reason, or with the answer's own message", async () => {
    const unanswerable = gate({
      approve: async () => ({ approved: false, reason: "unanswerable" }),
    });
    const denied = await unanswerable.check("delete", { names: ["a", "b"] });
    expect(denied?.message).toBe(
      "Not approved: delete a, b (rule 'delete': this server asks a person before such commands, and the client cannot ask anybody (it declared no elicitation support)). Nothing of it ran; the rest of this script gets the same answer for 'delete'.",
    );
    const worded = gate({
      approve: async () => ({
        approved: false,
        reason: "declined",
        by: "lead",
        message: "not on the hero asset",
      }),
    });
    expect((await worded.check("delete", { names: ["hero"] }))?.message).toContain(
      "(rule 'delete': not on the hero asset)",
    );
    expect(worded.records()).toEqual([
      expect.objectContaining({ answer: "declined", by: "lead", summary: "delete hero" }),
    ]);
  });

  it("withdraws an open question when the script stops", async () => {
    const stop = new AbortController();
    let asked: () => void = () => {};
    const open = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const approve = recordingApprover(async (question) => {
      asked();
      await aborted(question.signal);
      // Too late: the script stopped first.
      return { approved: true };
    });
    const checks = gate({ approve, stop: stop.signal });
    const answer = checks.check("delete", { names: ["a"] });
    await open;
    stop.abort();
    expect(await answer).toMatchObject({ data: { reason: "cancelled" } });
    expect(approve.questions[0]?.signal.aborted).toBe(true);
    // Stopped already: the next one is not asked.
    expect(await checks.check("delete", { names: ["b"] })).toMatchObject({
      data: { reason: "cancelled" },
    });
    expect(approve.questions).toHaveLength(1);
  });

  it("asks each rule that covers a command, in order, and stops at the first denial", async () => {
    const publish = commandApprovalRule({ name: "publish", commands: ["delete"] });
    const render = commandApprovalRule({ name: "render", commands: ["delete"] });
    const approve = recordingApprover(async (question) =>
      question.rule === "publish" ? { approved: false, reason: "declined" } : { approved: true },
    );
    const checks = gate({ approve, rules: [deleteRule, publish, render] });
    expect(await checks.check("delete", { names: ["a"] })).toMatchObject({
      data: { rule: "publish", reason: "declined" },
    });
    expect(approve.questions.map((question) => question.rule)).toEqual(["delete", "publish"]);
    expect(checks.records()?.map((record) => record.answer)).toEqual(["approved", "declined"]);
  });
});
