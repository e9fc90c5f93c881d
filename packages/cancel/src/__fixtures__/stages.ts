// Stages shared by the stage and orchestrator tests.
import type { RunContext, RunEventSink } from "../run-context.ts";
import { Stage } from "../stage.ts";
import type { StageProgress } from "../stage-progress.ts";

/** Records every event in order. */
export function recorder(): { events: string[]; sink: RunEventSink } {
  const events: string[] = [];
  return {
    events,
    sink: {
      stageStarted: ({ stage }) => events.push(`started ${stage}`),
      stageCompleted: ({ stage }) => events.push(`completed ${stage}`),
      stageCancelled: ({ stage, progress }) =>
        events.push(`cancelled ${stage}${progress ? ` at ${progress.completed}` : ""}`),
      stageFailed: ({ stage }) => events.push(`failed ${stage}`),
    },
  };
}

export class FnStage<I, O> extends Stage<I, O> {
  readonly name: string;
  readonly #fn: (context: RunContext, input: I) => O | Promise<O>;
  constructor(name: string, fn: (context: RunContext, input: I) => O | Promise<O>) {
    super();
    this.name = name;
    this.#fn = fn;
  }
  protected execute(context: RunContext, input: I): O | Promise<O> {
    return this.#fn(context, input);
  }
}

/** Audits items one by one, checking in between, as a multi-item stage should. */
export class AuditStage extends Stage<string[], string[]> {
  readonly name = "audit";
  readonly onItem: (item: string) => void;
  constructor(onItem: (item: string) => void) {
    super();
    this.onItem = onItem;
  }
  protected execute(context: RunContext, items: string[]): string[] {
    const done: string[] = [];
    for (const item of items) {
      context.checkpoint({
        stage: this.name,
        progress: { completed: done.length, total: items.length },
      });
      this.onItem(item);
      done.push(item);
    }
    return done;
  }
  protected override progressAfter(output: string[]): StageProgress {
    return { completed: output.length, total: output.length };
  }
}
