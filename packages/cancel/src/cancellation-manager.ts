import { ActiveCallError } from "./active-call-error.ts";
import type { CancellationToken } from "./cancellation-token.ts";
import { StageCancelledError } from "./stage-cancelled-error.ts";
import type { StageProgress } from "./stage-progress.ts";

/**
 * Stops one active call forcefully, e.g. by signalling its subprocess. A returned promise is
 * awaited by {@link CancellationManager.settled}; its value is ignored.
 */
export type CancelActiveCall = () => unknown;

/** Options for {@link CancellationManager}. */
export interface CancellationManagerOptions {
  /** The caller's signal; without one the run is never cancelled. */
  token?: CancellationToken | undefined;
}

/** Options for {@link CancellationManager.checkpoint}. */
export interface CheckpointOptions {
  /** The stage reaching the checkpoint. */
  stage: string;
  /** How far it got. */
  progress?: StageProgress | undefined;
}

/**
 * The run's cancellation hub. Stages call {@link CancellationManager.checkpoint} at natural
 * boundaries (cooperative); runners register their in-flight external calls so a checkpoint
 * that sees the cancellation can stop them at once (forceful) before unwinding the stage.
 */
export class CancellationManager {
  readonly #token: CancellationToken | undefined;
  readonly #active = new Map<string, CancelActiveCall>();
  #stopping: Array<Promise<ActiveCallError[]>> = [];

  constructor(options: CancellationManagerOptions = {}) {
    this.#token = options.token;
  }

  /** Whether the caller's token says the run is cancelled. */
  isCancelled(): boolean {
    return this.#token?.isCancelled() ?? false;
  }

  /**
   * Does nothing while the run goes on. Once it is cancelled, first tells every active call to
   * stop ({@link CancellationManager.cancelActiveCalls}; await
   * {@link CancellationManager.settled} for them to finish), then throws.
   * @throws {StageCancelledError} carrying `stage` and `progress` when the run is cancelled.
   */
  checkpoint(options: CheckpointOptions): void {
    if (!this.isCancelled()) return;
    if (this.#active.size > 0) this.#stopping.push(this.#stopAll());
    throw new StageCancelledError({ stage: options.stage, progress: options.progress });
  }

  /**
   * Registers an in-flight external call and the function that stops it.
   * @throws {ActiveCallError} (`DUPLICATE_ACTIVE_CALL`) when the id is already registered.
   */
  registerActiveCall(callId: string, cancel: CancelActiveCall): void {
    if (this.#active.has(callId)) {
      throw new ActiveCallError({
        code: "DUPLICATE_ACTIVE_CALL",
        callId,
        message: `Active call ${callId} is already registered`,
      });
    }
    this.#active.set(callId, cancel);
  }

  /** Forgets a call that ended by itself. Returns false when it was not registered. */
  unregisterActiveCall(callId: string): boolean {
    return this.#active.delete(callId);
  }

  /** Ids of the calls registered now, in registration order. */
  get activeCallIds(): string[] {
    return [...this.#active.keys()];
  }

  /**
   * Stops every registered call: each cancel function is invoked synchronously, in registration
   * order, before this returns, and the registry is emptied. Resolves once all of them finished.
   * @throws {AggregateError} of {@link ActiveCallError}s when any cancel function failed.
   */
  async cancelActiveCalls(): Promise<void> {
    const failures = await this.#stopAll();
    if (failures.length > 0) throw new AggregateError(failures, "Some active calls failed to stop");
  }

  /**
   * Resolves when every stop begun by a checkpoint has finished.
   * @throws {AggregateError} of {@link ActiveCallError}s when any of those stops failed.
   */
  async settled(): Promise<void> {
    const stopping = this.#stopping;
    this.#stopping = [];
    const failures = (await Promise.all(stopping)).flat();
    if (failures.length > 0) throw new AggregateError(failures, "Some active calls failed to stop");
  }

  #stopAll(): Promise<ActiveCallError[]> {
    const calls = [...this.#active];
    this.#active.clear();
    const outcomes = calls.map(([callId, cancel]) => {
      const fail = (cause: unknown): ActiveCallError =>
        new ActiveCallError({
          code: "ACTIVE_CALL_CANCEL_FAILED",
          callId,
          message: `Active call ${callId} failed to stop`,
          cause,
        });
      try {
        return Promise.resolve(cancel()).then(() => undefined, fail);
      } catch (error) {
        return Promise.resolve(fail(error));
      }
    });
    return Promise.all(outcomes).then((results) =>
      results.filter((result): result is ActiveCallError => result !== undefined),
    );
  }
}
