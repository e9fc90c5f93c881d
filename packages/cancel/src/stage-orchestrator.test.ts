import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AuditStage, FnStage, recorder } from "./__fixtures__/stages.ts";
import { CancellationManager } from "./cancellation-manager.ts";
import { ManualCancellationToken } from "./manual-cancellation-token.ts";
import { StageOrchestrator } from "./stage-orchestrator.ts";
import { terminateProcess } from "./terminate-process.ts";

describe("StageOrchestrator", () => {
  it("runs the stages in order, piping outputs, and completes", async () => {
    const { events, sink } = recorder();
    const orchestrator = new StageOrchestrator({
      stages: [
        new FnStage("plan", (_context, input: number) => input + 1),
        new FnStage("patch", (_context, input: number) => input * 10),
      ],
      events: sink,
    });
    const result = await orchestrator.run(1);
    expect(result.status).toBe("completed");
    expect(result.output).toBe(20);
    expect(result.stages.map((stage) => stage.status)).toEqual(["completed", "completed"]);
    expect(events).toEqual(["started plan", "completed plan", "started patch", "completed patch"]);
  });

  it("stops at the first cancelled stage and reports cancelled, not failed", async () => {
    const token = new ManualCancellationToken();
    const { events, sink } = recorder();
    const ran: string[] = [];
    const orchestrator = new StageOrchestrator({
      cancellation: new CancellationManager({ token }),
      events: sink,
      stages: [
        new FnStage("plan", () => {
          ran.push("plan");
          return ["a", "b", "c"];
        }),
        new AuditStage((item) => {
          ran.push(item);
          if (item === "b") token.cancel();
        }),
        new FnStage("verify", () => ran.push("verify")),
      ],
    });
    const result = await orchestrator.run(undefined);
    expect(result.status).toBe("cancelled");
    expect(ran).toEqual(["plan", "a", "b"]);
    expect(result.stages.map((stage) => [stage.stage, stage.status])).toEqual([
      ["plan", "completed"],
      ["audit", "cancelled"],
    ]);
    expect(result.stages[1]?.progress).toEqual({ completed: 2, total: 3 });
    expect(events).toEqual([
      "started plan",
      "completed plan",
      "started audit",
      "cancelled audit at 2",
    ]);
  });

  it("kills the agent subprocess at the checkpoint and returns only after it exited", async () => {
    const fixture = fileURLToPath(new URL("./__fixtures__/stubborn-child.mjs", import.meta.url));
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    let agent: ChildProcess | undefined;
    const stage = new FnStage("verify", async (context) => {
      agent = spawn(process.execPath, [fixture, "ignore"], { stdio: ["ignore", "pipe", "ignore"] });
      const child = agent;
      const exited = once(child, "exit");
      context.cancellation.registerActiveCall("agent-1", () =>
        terminateProcess(child, { graceMs: 100 }),
      );
      await once(child.stdout as NodeJS.ReadableStream, "data");
      token.cancel();
      // A parallel branch reaches its checkpoint while the agent call is still in flight.
      context.checkpoint({ stage: "verify", progress: { completed: 0, total: 1 } });
      await exited;
      return "unreachable";
    });
    const result = await new StageOrchestrator({ cancellation: manager, stages: [stage] }).run();
    expect(result.status).toBe("cancelled");
    expect(agent?.signalCode).toBe("SIGKILL");
    expect(manager.activeCallIds).toEqual([]);
  });

  it("returns cancelled with the stop failure when an active call could not be stopped", async () => {
    const token = new ManualCancellationToken();
    const manager = new CancellationManager({ token });
    const result = await new StageOrchestrator({
      cancellation: manager,
      stages: [
        new FnStage("plan", (context) => {
          context.cancellation.registerActiveCall("stuck", () =>
            Promise.reject(new Error("EPERM")),
          );
          token.cancel();
          context.checkpoint({ stage: "plan" });
        }),
      ],
    }).run();
    expect(result.status).toBe("cancelled");
    expect(result.error).toBeInstanceOf(AggregateError);
  });

  it("reports an unrelated error as failed", async () => {
    const boom = new Error("boom");
    const { events, sink } = recorder();
    const result = await new StageOrchestrator({
      events: sink,
      stages: [
        new FnStage("plan", () => {
          throw boom;
        }),
        new FnStage("never", () => 1),
      ],
    }).run();
    expect(result.status).toBe("failed");
    expect(result.error).toBe(boom);
    expect(events).toEqual(["started plan", "failed plan"]);
  });
});
