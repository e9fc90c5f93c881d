import { availableParallelism } from "node:os";
import { PooledWorker, type RunHooks } from "./internal/pooled-worker.ts";
import type { RunEntry, RunLimits, RunOutcome } from "./internal/sandbox-types.ts";

/** Options for {@link SandboxPool}. */
export interface SandboxPoolOptions {
  /** Number of worker threads; default: available cores, between 1 and 4. */
  size?: number;
  /**
   * Largest per-execution memory limit the pool must support, in bytes (default 64 MiB). Each
   * worker reserves a fixed-size WASM memory of twice this plus 32 MiB (allocator overhead and
   * headroom); pages are only resident once used.
   */
  memoryBytes?: number;
  /** How long past the deadline a stuck worker gets before it is terminated; default 100 ms. */
  timeoutGraceMs?: number;
  /** How long after a cancel a stuck worker gets before it is terminated; default 100 ms. */
  cancelGraceMs?: number;
}

/** One script for {@link SandboxPool.run}. */
export interface SandboxJob {
  code: string;
  entry?: RunEntry;
  limits: RunLimits;
  /** Absolute deadline in `Date.now()` milliseconds. */
  deadline: number;
  streamLogs: boolean;
  streamProgress: boolean;
}

/** How a pooled run ended: the worker's outcome, plus whether a worker ever started it. */
export type SandboxRunResult = RunOutcome & { started: boolean };

const headroomBytes = 32 * 1024 * 1024;
const pageBytes = 64 * 1024;

/**
 * A pool of sandbox worker threads, each with one QuickJS module. Workers start on demand (or
 * with {@link SandboxPool.warmUp}), run one script at a time, are unref'd while idle, and are
 * replaced when one crashes, is poisoned, or has to be terminated at a deadline or cancel.
 * Several {@link DccApiExecutor}s may share one pool.
 */
export class SandboxPool {
  /** Number of worker threads. */
  readonly size: number;
  /** Largest per-execution memory limit this pool supports, in bytes. */
  readonly memoryBytes: number;
  #wasmPages: number;
  #timeoutGraceMs: number;
  #cancelGraceMs: number;
  #all = new Set<PooledWorker>();
  #idle: PooledWorker[] = [];
  #waiters: Array<(worker: PooledWorker | null) => void> = [];
  #closed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? Math.min(4, availableParallelism())));
    this.memoryBytes = options.memoryBytes ?? 64 * 1024 * 1024;
    // QuickJS counts its own allocations, not dlmalloc's per-block overhead, so many small
    // objects can use about twice the limit in real WASM memory; leave room for that.
    this.#wasmPages = Math.ceil((2 * this.memoryBytes + headroomBytes) / pageBytes);
    this.#timeoutGraceMs = options.timeoutGraceMs ?? 100;
    this.#cancelGraceMs = options.cancelGraceMs ?? 100;
  }

  /** Starts every worker now, so the first executions do not pay the ~60-90 ms start-up. */
  async warmUp(): Promise<void> {
    while (!this.#closed && this.#all.size < this.size) {
      const worker = this.#spawn();
      await worker.ready.catch(() => {});
      if (!worker.dead) this.#release(worker);
    }
  }

  /**
   * Runs one job on a free worker (internal to `@dcc/executor`; {@link DccApiExecutor.execute} is
   * the public way in). Never rejects. `signal` cancels it: the worker's interrupt flag is raised
   * and, if the script does not stop within the grace period, the worker is terminated.
   */
  async run(job: SandboxJob, hooks: RunHooks, signal: AbortSignal): Promise<SandboxRunResult> {
    const notStarted = (errorCode: "CANCELLED" | "TIMEOUT" | "INTERNAL", error: string) =>
      ({
        status: "error",
        errorCode,
        error,
        logs: [],
        dispatchCalls: 0,
        poisoned: false,
        started: false,
        ...(errorCode === "TIMEOUT" ? { limit: "timeout" as const } : {}),
      }) satisfies SandboxRunResult;
    if (signal.aborted) return notStarted("CANCELLED", "Script was cancelled before it started");
    const worker = await this.#acquire(signal, job.deadline);
    if (worker === "cancelled")
      return notStarted("CANCELLED", "Script was cancelled before it started");
    if (worker === "timeout")
      return notStarted("TIMEOUT", "Script timed out waiting for a free sandbox");
    if (worker === null)
      return notStarted("INTERNAL", "The sandbox pool is closed or could not start a worker");

    return new Promise<SandboxRunResult>((resolve) => {
      let settled = false;
      let cancelTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: RunOutcome, replace: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(hardTimer);
        clearTimeout(cancelTimer);
        signal.removeEventListener("abort", onAbort);
        if (replace || worker.dead) this.#replace(worker);
        else this.#release(worker);
        resolve({ ...outcome, started: true });
      };
      const terminated = (errorCode: "TIMEOUT" | "CANCELLED", error: string): RunOutcome => ({
        status: "error",
        errorCode,
        error,
        logs: [],
        dispatchCalls: 0,
        poisoned: true,
        ...(errorCode === "TIMEOUT" ? { limit: "timeout" as const } : {}),
      });
      // The interrupt handler stops ordinary code at the deadline; this catches built-ins it
      // cannot interrupt (a huge Array.join) by ending the whole thread.
      const hardTimer = setTimeout(
        () => finish(terminated("TIMEOUT", "Script exceeded its timeout"), true),
        Math.max(0, job.deadline - Date.now()) + this.#timeoutGraceMs,
      );
      const onAbort = (): void => {
        worker.cancel();
        cancelTimer ??= setTimeout(
          () => finish(terminated("CANCELLED", "Script was cancelled"), true),
          this.#cancelGraceMs,
        );
      };
      signal.addEventListener("abort", onAbort, { once: true });
      worker.run(job, hooks).then(
        (outcome) => finish(outcome, outcome.poisoned),
        (error: unknown) =>
          finish(
            {
              status: "error",
              errorCode: "INTERNAL",
              error: `The sandbox worker failed: ${error instanceof Error ? error.message : String(error)}`,
              logs: [],
              dispatchCalls: 0,
              poisoned: true,
            },
            true,
          ),
      );
    });
  }

  /** Terminates every worker; later runs fail with an INTERNAL error. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter(null);
    const workers = [...this.#all];
    this.#all.clear();
    this.#idle = [];
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => {})));
  }

  #spawn(): PooledWorker {
    const worker = new PooledWorker(this.#wasmPages);
    this.#all.add(worker);
    worker.ready.catch(() => this.#all.delete(worker));
    return worker;
  }

  async #acquire(
    signal: AbortSignal,
    deadline: number,
  ): Promise<PooledWorker | null | "cancelled" | "timeout"> {
    for (;;) {
      if (this.#closed) return null;
      const idle = this.#idle.shift();
      if (idle !== undefined) {
        if (!idle.dead) return idle;
        this.#all.delete(idle);
        continue;
      }
      if (this.#all.size < this.size) {
        const worker = this.#spawn();
        try {
          await worker.ready;
          return worker;
        } catch {
          this.#all.delete(worker);
          return null;
        }
      }
      const next = await new Promise<PooledWorker | null | "cancelled" | "timeout">((resolve) => {
        const cleanup = (): void => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          this.#waiters = this.#waiters.filter((entry) => entry !== waiter);
        };
        const waiter = (worker: PooledWorker | null): void => {
          cleanup();
          resolve(worker);
        };
        const onAbort = (): void => {
          cleanup();
          resolve("cancelled");
        };
        const timer = setTimeout(
          () => {
            cleanup();
            resolve("timeout");
          },
          Math.max(0, deadline - Date.now()),
        );
        signal.addEventListener("abort", onAbort, { once: true });
        this.#waiters.push(waiter);
      });
      if (next !== null) return next;
      if (this.#closed) return null;
    }
  }

  #release(worker: PooledWorker): void {
    if (this.#closed || worker.dead) {
      this.#all.delete(worker);
      void worker.terminate().catch(() => {});
      return;
    }
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      waiter(worker);
      return;
    }
    worker.unref();
    this.#idle.push(worker);
  }

  #replace(worker: PooledWorker): void {
    this.#all.delete(worker);
    void worker.terminate().catch(() => {});
    if (this.#closed) return;
    // Start the replacement now, so the pool stays warm and a queued run gets it.
    const fresh = this.#spawn();
    fresh.ready.then(
      () => this.#release(fresh),
      () => {
        // Wake one waiter so it can try to spawn again instead of hanging.
        this.#waiters.shift()?.(null);
      },
    );
  }
}
