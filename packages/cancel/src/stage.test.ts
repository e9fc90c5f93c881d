import { describe, expect, it } from "vitest";
import { AuditStage, FnStage, recorder } from "./__fixtures__/stages.ts";
import { CancelToken } from "./cancel-token.ts";
import { checkCancelled, withCancelToken } from "./cancel-token-context.ts";
import { CancellationManager, type CheckpointOptions } from "./cancellation-manager.ts";
import { ManualCancellationToken } from "./manual-cancellation-token.ts";
import { createRunContext } from "./run-context.ts";

/** A manager that logs each checkpoint into a shared list before checking. */
class RecordingManager extends CancellationManager {
  readonly log: string[];
  constructor(token: ManualCancellationToken, log: string[]) {
    super({ token });
    this.log = log;
  }
  override checkpoint(options: CheckpointOptions): void {
    this.log.push(
      `checkpoint ${options.stage}${options.progress ? ` ${options.progress.completed}` : ""}`,
    );
    super.checkpoint(options);
  }
}

describe("Stage", () => {
  it("checkpoints before and after its work, reporting progressAfter", async () => {
    const log: string[] = [];
    const manager = new RecordingManager(new ManualCancellationToken(), log);
    const stage = new AuditStage((item) => log.push(`audit ${item}`));
    const outcome = await stage.run(createRunContext({ cancellation: manager }), ["x"]);
    expect(outcome).toEqual({ stage: "audit", status: "completed", output: ["x"] });
    expect(log).toEqual([
      "checkpoint audit",
      "checkpoint audit 0",
      "audit x",
      "checkpoint audit 1",
    ]);
  });

  it("does not run its work when the run is already cancelled", async () => {
    const token = new ManualCancellationToken();
    token.cancel();
    const { events, sink } = recorder();
    const work: string[] = [];
    const stage = new FnStage("plan", () => work.push("plan"));
    const context = createRunContext({
      cancellation: new CancellationManager({ token }),
      events: sink,
    });
    const outcome = await stage.run(context, undefined);
    expect(outcome).toEqual({ stage: "plan", status: "cancelled", progress: undefined });
    expect(work).toEqual([]);
    expect(events).toEqual(["started plan", "cancelled plan"]);
  });

  it("is cancelled at the checkpoint after its work, keeping the final progress", async () => {
    const token = new ManualCancellationToken();
    const stage = new AuditStage((item) => item === "z" && token.cancel());
    const context = createRunContext({ cancellation: new CancellationManager({ token }) });
    const outcome = await stage.run(context, ["y", "z"]);
    expect(outcome.status).toBe("cancelled");
    expect(outcome.progress).toEqual({ completed: 2, total: 2 });
  });

  it("counts an error thrown while the run is cancelled as a cancellation", async () => {
    const token = new ManualCancellationToken();
    const { events, sink } = recorder();
    const stage = new FnStage("patch", () => {
      token.cancel();
      throw new Error("agent exited with SIGKILL");
    });
    const context = createRunContext({
      cancellation: new CancellationManager({ token }),
      events: sink,
    });
    const outcome = await stage.run(context, undefined);
    expect(outcome.status).toBe("cancelled");
    expect(events).toEqual(["started patch", "cancelled patch"]);
  });

  it("counts a request cancellation inside the work as a cancellation", async () => {
    const token = new CancelToken();
    token.cancel("client went away");
    const stage = new FnStage("render", () => withCancelToken(token, () => checkCancelled()));
    const context = createRunContext({ cancellation: new CancellationManager() });
    const outcome = await stage.run(context, undefined);
    expect(outcome.status).toBe("cancelled");
  });

  it("reports any other error as failed, without throwing", async () => {
    const boom = new Error("boom");
    const { events, sink } = recorder();
    const stage = new FnStage("plan", async () => {
      throw boom;
    });
    const context = createRunContext({ cancellation: new CancellationManager(), events: sink });
    await expect(stage.run(context, undefined)).resolves.toEqual({
      stage: "plan",
      status: "failed",
      error: boom,
    });
    expect(events).toEqual(["started plan", "failed plan"]);
  });
});
