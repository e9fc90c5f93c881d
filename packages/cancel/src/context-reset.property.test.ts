import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CancelToken } from "./cancel-token.ts";
import {
  currentCancelToken,
  resetCancelToken,
  setCancelToken,
  withCancelToken,
} from "./cancel-token-context.ts";
import type { ContextReset } from "./context-reset.ts";
import { currentJob, resetCurrentJob, setCurrentJob } from "./current-job-context.ts";
import { runIsolated } from "./internal/ambient-store.ts";

const tokens = Array.from({ length: 4 }, (_, index) => new CancelToken({ jobId: `t${index}` }));

/** A set of token `index` (or null), or a reset of the `pick`-th still unused handle. */
type Operation = { kind: "set"; index: number | null } | { kind: "reset"; pick: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant("set" as const),
    index: fc.option(fc.integer({ min: 0, max: tokens.length - 1 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant("reset" as const), pick: fc.nat() }),
);

/** Python's ContextVar model: a reset puts back exactly what its own set replaced. */
class Model {
  value: CancelToken | null;
  readonly open: Array<{ handle: ContextReset; previous: CancelToken | null }> = [];

  constructor(initial: CancelToken | null = null) {
    this.value = initial;
  }

  /** Applies one operation to the real context and the model, then compares them. */
  step(operation: Operation): void {
    if (operation.kind === "set") {
      const value = operation.index === null ? null : (tokens[operation.index] ?? null);
      this.open.push({ handle: setCancelToken(value), previous: this.value });
      this.value = value;
    } else if (this.open.length > 0) {
      const [entry] = this.open.splice(operation.pick % this.open.length, 1);
      if (entry === undefined) return;
      resetCancelToken(entry.handle);
      this.value = entry.previous;
    }
    expect(currentCancelToken()).toBe(this.value ?? undefined);
  }
}

function replay(operations: readonly Operation[], check: () => void = () => {}): void {
  const model = new Model();
  for (const operation of operations) {
    model.step(operation);
    check();
  }
}

describe("set/reset properties", () => {
  it("follows the contextvars model for any order of sets and resets", () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        runIsolated(() => replay(operations));
      }),
    );
  });

  it("restores the starting token after resetting every handle in reverse order", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: tokens.length - 1 }), { nil: null }),
        fc.array(fc.option(fc.integer({ min: 0, max: tokens.length - 1 }), { nil: null }), {
          maxLength: 20,
        }),
        (start, values) => {
          const initial = start === null ? null : (tokens[start] ?? null);
          withCancelToken(initial, () => {
            const handles = values.map((index) =>
              setCancelToken(index === null ? null : (tokens[index] ?? null)),
            );
            for (const handle of handles.reverse()) resetCancelToken(handle);
            expect(currentCancelToken()).toBe(initial ?? undefined);
          });
        },
      ),
    );
  });

  it("never disturbs the current job while the token changes", () => {
    const job = { cancelled: false, jobId: "job" };
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        runIsolated(() => {
          const handle = setCurrentJob(job);
          replay(operations, () => expect(currentJob()).toBe(job));
          resetCurrentJob(handle);
          expect(currentJob()).toBeUndefined();
        });
      }),
    );
  });

  it("restores the outer token on leaving a scope, whatever was set or reset inside", () => {
    type Program = Array<Operation | { kind: "scope"; index: number | null; body: Program }>;
    const { program } = fc.letrec<{ program: Program }>((tie) => ({
      program: fc.array(
        fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          operation,
          fc.record({
            kind: fc.constant("scope" as const),
            index: fc.option(fc.integer({ min: 0, max: tokens.length - 1 }), { nil: null }),
            body: tie("program") as fc.Arbitrary<Program>,
          }),
        ),
        { maxLength: 8 },
      ),
    }));
    const execute = (steps: Program, initial: CancelToken | null = null): void => {
      const model = new Model(initial);
      for (const step of steps) {
        if (step.kind !== "scope") {
          model.step(step);
          continue;
        }
        const outer = currentCancelToken();
        expect(outer).toBe(model.value ?? undefined);
        const inner = step.index === null ? null : (tokens[step.index] ?? null);
        withCancelToken(inner, () => {
          expect(currentCancelToken()).toBe(inner ?? undefined);
          execute(step.body, inner);
        });
        expect(currentCancelToken()).toBe(outer);
      }
    };
    fc.assert(fc.property(program, (steps) => runIsolated(() => execute(steps))));
  });

  it("keeps concurrent asynchronous contexts independent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 12 }), { minLength: 2, maxLength: 4 }),
        async (programs) => {
          // Each program runs in its own context, yielding between steps so they interleave.
          const runs = programs.map((operations) =>
            runIsolated(async () => {
              const model = new Model();
              for (const step of operations) {
                await Promise.resolve();
                model.step(step);
              }
            }),
          );
          await Promise.all(runs);
        },
      ),
      { numRuns: 50 },
    );
  });
});
