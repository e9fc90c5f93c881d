// One script's transaction as the executor drives it: begun lazily before the first host
// command through the main thread, then committed or rolled back once the script's host
// commands have settled. Every wait on the adapter is bounded.

import { CommandError } from "../command-error.ts";
import type {
  DccTransaction,
  DccTransactionOptions,
  DccTransactionReport,
} from "../dcc-transaction.ts";
import type { ExecuteChanges, ExecuteTransactionReport } from "../execute-result.ts";
import { ChangeTally } from "./change-tally.ts";

/** Begins a transaction on the host; see `DccAdapter.beginTransaction`. */
export type BeginTransaction = (options: DccTransactionOptions) => Promise<DccTransaction>;

/**
 * The transactions of one executor's host. A transaction that was ever open at the same time as
 * another is marked shared, and never rolled back (it would undo the other's work). A script's
 * first host command waits for the transactions that are ending (a stopped script frees its
 * sandbox before its rollback is done), so one script's rollback never overlaps the next one.
 */
export interface OpenTransactions {
  readonly open: Set<{ shared: boolean }>;
  readonly ending: Set<Promise<void>>;
}

/** An empty {@link OpenTransactions}. */
export function openTransactions(): OpenTransactions {
  return { open: new Set(), ending: new Set() };
}

/** What a {@link ScriptTransaction} needs. */
export interface ScriptTransactionOptions {
  dccName: string;
  /** Undefined: the host has no undo. */
  begin: BeginTransaction | undefined;
  label: string;
  /** Bound on each wait: for `begin`, for orphaned commands to settle, for `commit`/`rollback`. */
  waitMs: number;
  open: OpenTransactions;
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
  #begun = false;
  #transaction: DccTransaction | undefined;
  #beginError: string | undefined;
  readonly #entry = { shared: false };
  /** True while a stopped script's host command outlived the wait (see `host_busy`). */
  #lingering = false;
  #changes: ChangeTally | undefined;

  constructor(options: ScriptTransactionOptions) {
    this.#options = options;
  }

  /**
   * Called before each host command through the main thread: the first call begins the
   * transaction and returns a promise the command waits for; later calls return undefined.
   */
  beforeHostCall(): Promise<void> | undefined {
    if (this.#begun) return undefined;
    this.#begun = true;
    const { begin, label, waitMs, open: scope } = this.#options;
    if (begin === undefined) return undefined;
    const controller = new AbortController();
    const previous = [...scope.ending];
    const started = settlesWithin(
      Promise.all(previous).then(() => {}),
      waitMs,
    ).then(() => {
      for (const other of scope.open) other.shared = true;
      if (scope.open.size > 0) this.#entry.shared = true;
      scope.open.add(this.#entry);
      return begin({ label, signal: controller.signal });
    });
    return bounded(started, 2 * waitMs, controller).then(
      (transaction) => {
        this.#transaction = transaction;
      },
      (error: unknown) => {
        if (error instanceof CommandError && error.completion === "not_started") {
          // The host refused before doing anything (e.g. it restarted since the last script and
          // says so once): that is the first command's answer, and the next command begins again.
          this.#begun = false;
          this.#options.open.open.delete(this.#entry);
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
   * Commits or rolls back; the report for the result, or undefined when the script sent no host
   * command through the main thread (nothing to report).
   */
  async end(script: ScriptEnd): Promise<ExecuteTransactionReport | undefined> {
    if (!this.#begun) return undefined;
    const { dccName, begin, waitMs, open: scope } = this.#options;
    let ended: () => void = () => {};
    const ending = new Promise<void>((resolve) => {
      ended = resolve;
    });
    scope.ending.add(ending);
    try {
      return await this.#end(script, dccName, begin, waitMs);
    } finally {
      if (!this.#lingering) scope.open.delete(this.#entry);
      scope.ending.delete(ending);
      ended();
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
      // transaction stays open: a later script waits for it (bounded), or counts as sharing.
      const scope = this.#options.open;
      const late = script.idle
        .then(() => transaction?.commit())
        .catch(() => {})
        .then(() => {
          scope.open.delete(this.#entry);
          scope.ending.delete(late);
        });
      scope.ending.add(late);
      this.#lingering = true;
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
    if (this.#entry.shared) {
      const kept = await this.#call(() => transaction.commit(), false);
      return {
        ...kept,
        rolledBack: false,
        reason: "scene_shared",
        detail: "another script changed the scene meanwhile; undoing would undo its work too",
      };
    }
    return await this.#call(() => transaction.rollback(), true);
  }

  async #call(
    action: () => Promise<DccTransactionReport>,
    rollingBack: boolean,
  ): Promise<ExecuteTransactionReport> {
    try {
      const report = await bounded(
        Promise.resolve().then(action),
        this.#options.waitMs,
        new AbortController(),
      );
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
