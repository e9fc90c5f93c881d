import { availableParallelism } from "node:os";
import { PooledWorker, type RunHooks } from "./internal/pooled-worker.ts";
import { type SandboxJob, type SandboxRunResult, setPoolRun } from "./internal/run-on-pool.ts";
import type { RunOutcome } from "./internal/sandbox-types.ts";
import { atDeadline } from "./internal/script-clock.ts";

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

/** A snapshot of a {@link SandboxPool}'s workers and queue, from {@link SandboxPool.stats}. */
export interface SandboxPoolStats {
  /** Worker threads alive, starting ones included (at most the pool's `size`). */
  workers: number;
  /** Started workers waiting for a run. */
  idle: number;
  /** Workers still loading their QuickJS module. */
  starting: number;
  /** Workers running a script (or stopping one). */
  busy: number;
  /** Runs waiting for a free worker. */
  queued: number;
}

const headroomBytes = 32 * 1024 * 1024;
const pageBytes = 64 * 1024;
/**
 * A run still going after this long is the kind that gets cancelled or overlapped by the next
 * call: by then the pool starts a spare worker if it has room and none is idle. Only on a worker
 * that has run before: a fresh worker's first run is slow with its own warm-up, whatever the
 * script, and a spare then would only compete with it.
 */
const spareAfterMs = 100;

/**
 * A pool of sandbox worker threads, each with one QuickJS module. Workers start on demand (or
 * with {@link SandboxPool.warmUp}), run one script at a time, are unref'd while idle, and are
 * replaced when one crashes, is poisoned, or has to be terminated at a deadline or cancel.
 * A run that must wait takes the first worker that becomes free, whether one that finished or
 * one that started; a cancel reaches it while it waits. Once a run has been going for 100 ms and
 * no worker is idle, a spare starts in the background (within the pool's size; not during a
 * fresh worker's first run), so the call after a cancel, or one beside a long script, finds a
 * started worker.
 * Several {@link DccApiExecutor}s may share one pool.
 */
export class SandboxPool {
  static {
    setPoolRun((pool, job, hooks, signal) => pool.#run(job, hooks, signal));
  }
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
  #starting = new Set<PooledWorker>();
  /** Workers that have finished a run. */
  #seasoned = new WeakSet<PooledWorker>();
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

  /** Workers and queue right now (for health checks and tests). */
  get stats(): SandboxPoolStats {
    const workers = this.#all.size;
    const idle = this.#idle.length;
    const starting = this.#starting.size;
    return {
      workers,
      idle,
      starting,
      busy: workers - idle - starting,
      queued: this.#waiters.length,
    };
  }

  /**
   * Starts every worker now, one after the other, so the first executions do not pay the
   * ~60-90 ms start-up; resolves once each has started (or failed to: then it stops trying).
   */
  async warmUp(): Promise<void> {
    while (!this.#closed && this.#all.size < this.size) {
      const worker = this.#start({ background: false });
      await worker.ready.catch(() => {});
      if (worker.dead) return;
    }
    // A spare may have been starting already.
    await Promise.all([...this.#starting].map((worker) => worker.ready.catch(() => {})));
  }

  /** See `runOnPool` (internal). */
  async #run(job: SandboxJob, hooks: RunHooks, signal: AbortSignal): Promise<SandboxRunResult> {
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
    // A cancel between the hand-over and here would never reach the listener below.
    if (signal.aborted) {
      this.#release(worker);
      return notStarted("CANCELLED", "Script was cancelled before it started");
    }

    return new Promise<SandboxRunResult>((resolve) => {
      let settled = false;
      let cancelTimer: NodeJS.Timeout | undefined;
      const spareTimer = this.#seasoned.has(worker)
        ? setTimeout(() => this.#keepSpare(), spareAfterMs).unref()
        : undefined;
      const finish = (outcome: RunOutcome, replace: boolean): void => {
        if (settled) return;
        settled = true;
        cancelHardTimer();
        clearTimeout(cancelTimer);
        clearTimeout(spareTimer);
        signal.removeEventListener("abort", onAbort);
        if (replace || worker.dead) this.#replace(worker);
        else {
          this.#seasoned.add(worker);
          this.#release(worker);
        }
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
      const cancelHardTimer = atDeadline(
        job.deadline,
        job.deadlineShift,
        this.#timeoutGraceMs,
        () => finish(terminated("TIMEOUT", "Script exceeded its timeout"), true),
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
    this.#starting.clear();
    this.#idle = [];
    await Promise.all(workers.map((worker) => worker.terminate().catch(() => {})));
  }

  /**
   * Starts a worker; once it is up it goes to the first waiting run, or idles. A start that fails
   * fails the first waiting run instead of leaving it to its deadline. A `background` start (a
   * spare, a replacement nobody waits for) does not keep the process alive while it loads.
   */
  #start(options: { background: boolean }): PooledWorker {
    const worker = new PooledWorker(this.#wasmPages);
    if (options.background) worker.unref();
    this.#all.add(worker);
    this.#starting.add(worker);
    worker.ready.then(
      () => {
        this.#starting.delete(worker);
        this.#release(worker);
      },
      () => {
        this.#starting.delete(worker);
        this.#all.delete(worker);
        // Each failure fails one waiting run, so this cannot loop: the others get a new try.
        this.#waiters.shift()?.(null);
        this.#startForWaiters();
      },
    );
    return worker;
  }

  /** Starts workers until every waiting run has one on the way (within the pool's size). */
  #startForWaiters(): void {
    while (
      !this.#closed &&
      this.#all.size < this.size &&
      this.#starting.size < this.#waiters.length
    ) {
      this.#start({ background: false });
    }
  }

  /** With no idle or starting worker and room in the pool, starts one in the background. */
  #keepSpare(): void {
    if (this.#closed || this.#all.size >= this.size) return;
    if (this.#idle.length === 0 && this.#starting.size === 0) this.#start({ background: true });
  }

  /**
   * An idle worker at once, else the first one to become free (a finished run's, or a started
   * one). Never waits on one particular worker's start-up while another may come back sooner.
   */
  async #acquire(
    signal: AbortSignal,
    deadline: number,
  ): Promise<PooledWorker | null | "cancelled" | "timeout"> {
    if (this.#closed) return null;
    for (let idle = this.#idle.shift(); idle !== undefined; idle = this.#idle.shift()) {
      if (idle.dead) {
        this.#all.delete(idle);
        continue;
      }
      return idle;
    }
    const next = new Promise<PooledWorker | null | "cancelled" | "timeout">((resolve) => {
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
    this.#startForWaiters();
    return next;
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
    // Not awaited: the old thread's teardown is nobody's critical path.
    void worker.terminate().catch(() => {});
    if (this.#closed) return;
    // Start the replacement now, so the pool stays warm and a queued run gets it.
    this.#start({ background: this.#waiters.length === 0 });
  }
}
