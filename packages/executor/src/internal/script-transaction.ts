// One script's transaction as the executor drives it. The script takes the DCC's hold at its first
// command that may change the scene, and the transaction begins then; both last until the
// transaction is committed or rolled back, once the script's host commands have settled. Reads
// take no hold and begin nothing. Every wait on the adapter is bounded.

import { CommandError } from "../command-error.ts";
import { commandErrorCodes } from "../command-error-code.ts";
import type {
  DccTransaction,
  DccTransactionOptions,
  DccTransactionReport,
} from "../dcc-transaction.ts";
import type { ExecuteChanges, ExecuteTransactionReport } from "../execute-result.ts";
import { ChangeTally } from "./change-tally.ts";
import type { DccHold } from "./dcc-hold.ts";

/** Begins a transaction on the host; see `DccAdapter.beginTransaction`. */
export type BeginTransaction = (options: DccTransactionOptions) => Promise<DccTransaction>;

/** What a {@link ScriptTransaction} needs. */
export interface ScriptTransactionOptions {
  dccName: string;
  /** Undefined: the host has no undo. */
  begin: BeginTransaction | undefined;
  label: string;
  /** Bound on each wait: for `begin`, for orphaned commands to settle, for `commit`/`rollback`. */
  waitMs: number;
  /** The DCC's hold; undefined when the executor has no dispatcher (no host command runs). */
  hold: DccHold | undefined;
  /** True for a command that takes no hold: marked `readOnly`, or not registered at all. */
  readsOnly: (command: string) => boolean;
}

/** How the script ended, for {@link ScriptTransaction.end}. */
export interface ScriptEnd {
  success: boolean;
  /** The caller asked to keep a failed script's changes. */
  keep: boolean;
  /** Settles once no host command of the script is running. */
  idle: Promise<void>;
}

/** The transaction of one script run. */
export class ScriptTransaction {
  readonly #options: ScriptTransactionOptions;
  /** The script took the hold (its first change), so it has a transaction to end. */
  #begun = false;
  #transaction: DccTransaction | undefined;
  #beginError: string | undefined;
  /** True while a stopped script's host command outlived the wait (see `host_busy`). */
  #lingering = false;
  #changes: ChangeTally | undefined;
  /** Settles once the adapter's commit or rollback has, even after its bound. */
  #ending: Promise<void> | undefined;

  constructor(options: ScriptTransactionOptions) {
    this.#options = options;
  }

  /**
   * Called before each host command through the main thread: a read waits only while another
   * script's end is under way; the first command that may change the scene waits for the hold
   * and begins the transaction. Undefined when the command may run at once, else the promise
   * it runs after (a rejection is the command's answer).
   */
  beforeHostCall(command: string, signal: AbortSignal): Promise<void> | undefined {
    const hold = this.#options.hold;
    if (hold === undefined) return undefined;
    const refusal = (): CommandError =>
      new CommandError({
        command,
        code: commandErrorCodes.cancelled,
        message: `${command} was not started: the script was stopped while it waited for ${this.#options.dccName}`,
        completion: "not_started",
      });
    if (this.#options.readsOnly(command)) return hold.pass(this, signal, refusal);
    if (this.#begun) return undefined;
    const busy = (): CommandError =>
      new CommandError({
        command,
        code: commandErrorCodes.hostBusy,
        message: `${command} was not started: a host command of a stopped script is still running on ${this.#options.dccName}, and its changes are not closed yet; try again later`,
        completion: "not_started",
      });
    const taking = hold.take(this, signal, refusal, busy);
    if (taking === undefined) return this.#begin(command);
    return taking.then(() => {
      // Admitted as the script stopped: nothing to begin (its end releases the hold).
      if (signal.aborted) throw refusal();
      return this.#begin(command);
    });
  }

  /**
   * The script stopped (cancelled, timed out, or its sandbox finished): while it holds the DCC,
   * no other script's command runs until its end has finished.
   */
  stopped(): void {
    this.#options.hold?.seal(this);
  }

  #begin(command: string): Promise<void> | undefined {
    this.#begun = true;
    const { begin, label, waitMs } = this.#options;
    if (begin === undefined) return undefined;
    const controller = new AbortController();
    const started = Promise.resolve().then(() =>
      begin({ label, signal: controller.signal, command }),
    );
    return bounded(started, waitMs, controller).then(
      (transaction) => {
        this.#transaction = transaction;
      },
      (error: unknown) => {
        if (error instanceof CommandError && error.completion === "not_started") {
          // The host refused before doing anything (e.g. it restarted since the last script and
          // says so once): that is the command's answer, and the next change begins again.
          this.#begun = false;
          throw error;
        }
        this.#beginError = describe(error);
        // A begin that answers after the bound still holds an open step: close it.
        started.then((late) => late.commit()).catch(() => {});
      },
    );
  }

  /**
   * The script's net changes from the adapter's end report (see `DccTransactionReport.changes`),
   * once {@link ScriptTransaction.end} settled: `{ changes }` (undefined inside when the script
   * made and removed nothing), or undefined when the adapter sent no net report.
   */
  netChanges(): { changes: ExecuteChanges | undefined } | undefined {
    return this.#changes === undefined ? undefined : { changes: this.#changes.toJSON() };
  }

  /**
   * Commits or rolls back, then releases the hold; the report for the result, or undefined
   * when the script changed nothing through the main thread (nothing to report).
   */
  async end(script: ScriptEnd): Promise<ExecuteTransactionReport | undefined> {
    const hold = this.#options.hold;
    this.stopped();
    try {
      if (!this.#begun) {
        // A begin refused as not started leaves the hold taken: wait for the script's commands
        // (bounded) before another script may change the scene.
        if (hold?.holds(this)) await settlesWithin(script.idle, this.#options.waitMs);
        return undefined;
      }
      return await this.#end(
        script,
        this.#options.dccName,
        this.#options.begin,
        this.#options.waitMs,
      );
    } finally {
      // A commit or rollback past its bound may still be running in the DCC: the hold (and the
      // seal) last until it has settled.
      const ending = this.#ending;
      if (this.#lingering || hold === undefined) {
        // No hold, or the late step (see `host_busy`) releases it.
      } else if (ending === undefined) hold.release(this);
      else void ending.then(() => hold.release(this));
    }
  }

  async #end(
    script: ScriptEnd,
    dccName: string,
    begin: BeginTransaction | undefined,
    waitMs: number,
  ): Promise<ExecuteTransactionReport | undefined> {
    if (begin === undefined) {
      if (script.success) return undefined;
      return notRolledBack(
        "no_undo",
        `${dccName} has no undo: the script's changes up to its failure stay`,
      );
    }
    const idle = await settlesWithin(script.idle, waitMs);
    const transaction = this.#transaction;
    if (!idle) {
      // Close the step once the orphaned command ends; never undo under it. Until then the
      // script keeps the hold, so no other script changes the scene; reads may go on (the
      // dispatcher answers them HOST_BUSY while the command holds the host).
      const hold = this.#options.hold;
      this.#lingering = true;
      hold?.linger(this);
      script.idle
        .then(() => transaction?.commit())
        .catch(() => {})
        .then(() => hold?.release(this));
      return notRolledBack(
        "host_busy",
        `a host command of the script was still running ${waitMs / 1000}s after it stopped, so its changes stay`,
      );
    }
    if (transaction === undefined) {
      return notRolledBack("failed", `the transaction did not begin: ${this.#beginError}`);
    }
    if (script.success) return await this.#call(() => transaction.commit(), false);
    if (script.keep) {
      const kept = await this.#call(() => transaction.commit(), false);
      return { ...kept, rolledBack: false, reason: "kept", detail: "kept as asked" };
    }
    return await this.#call(() => transaction.rollback(), true);
  }

  async #call(
    action: () => Promise<DccTransactionReport>,
    rollingBack: boolean,
  ): Promise<ExecuteTransactionReport> {
    try {
      const running = Promise.resolve().then(action);
      this.#ending = running.then(
        () => {},
        () => {},
      );
      const report = await bounded(running, this.#options.waitMs, new AbortController());
      // An adapter that tracks the whole script says what it changed, net, under final names.
      if (report?.changes !== undefined) {
        this.#changes = new ChangeTally();
        this.#changes.add(report.changes);
      }
      return toJson(report);
    } catch (error) {
      return notRolledBack(
        "failed",
        `${rollingBack ? "the rollback" : "the commit"} failed: ${describe(error)}`,
      );
    }
  }
}

function notRolledBack(
  reason: ExecuteTransactionReport["reason"] & string,
  detail: string,
): ExecuteTransactionReport {
  return { rolledBack: false, reason, detail };
}

/** A plain JSON copy of an adapter's report (only the known fields). */
function toJson(report: DccTransactionReport): ExecuteTransactionReport {
  const json: ExecuteTransactionReport = { rolledBack: report?.rolledBack === true };
  if (typeof report?.undoStep === "string") json.undoStep = report.undoStep;
  if (typeof report?.reason === "string") json.reason = report.reason;
  if (typeof report?.detail === "string") json.detail = report.detail;
  if (Array.isArray(report?.filesWritten) && report.filesWritten.length > 0) {
    json.filesWritten = report.filesWritten.map(String);
  }
  return json;
}

/** `promise`, or a rejection after `ms` (aborting `controller` so the adapter gives up too). */
function bounded<T>(promise: Promise<T>, ms: number, controller: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${ms / 1000}s`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** True when `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  try {
    await bounded(
      promise.then(
        () => true,
        () => true,
      ),
      ms,
      new AbortController(),
    );
    return true;
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
