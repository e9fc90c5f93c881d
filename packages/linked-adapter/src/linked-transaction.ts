import {
  CommandError,
  type DccTransaction,
  type DccTransactionOptions,
  type DccTransactionReport,
} from "@dcc/executor";
import type { LinkedCaller } from "./linked-caller.ts";

/**
 * The DCC-side methods behind a script's transaction (see `DccTransaction` in `@dcc/executor`).
 * A DCC whose undo is a stack implements them with its own undo chunk.
 */
export interface LinkedTransactionMethods {
  /**
   * Called with `{ label }` just before a script's first command (Maya: `undoInfo(openChunk=True,
   * chunkName=label)`). A failure runs the script without a transaction.
   */
  readonly begin: string;
  /**
   * Called once with `{ rollback: boolean }` when the script ends; answers a
   * `DccTransactionReport` (`{ rolledBack, undoStep?, reason?, detail?, filesWritten? }`).
   */
  readonly end: string;
}

/** What {@link beginLinkedTransaction} needs of the adapter. */
export interface LinkedTransactionHost {
  /** The DCC's name in reports. */
  readonly displayName: string;
  /** Reaches the DCC. */
  readonly caller: LinkedCaller;
  /** How many times the DCC was launched or attached: a change means it restarted meanwhile. */
  launches(): number;
  /**
   * How many times the DCC went away (it exited, stopped answering, or was ended): a change
   * means the DCC the transaction began on is gone, even while its restart is still under way.
   * Without it only `launches` is compared, which changes once the new DCC is up.
   */
  exits?(): number;
}

/**
 * Begins a transaction through the DCC's `begin` method and returns the `DccTransaction` that
 * ends it through `end`. Ending is done once (a second `commit` or `rollback` answers the first's
 * report). A DCC that went away since `begin` (restarted, or still restarting) is not asked:
 * the report says `host_restarted` and nothing is sent to the new DCC, which never saw the
 * transaction; so does an `end` the DCC died under. An `end` that fails otherwise or answers
 * something that is not a report gives `failed` with the reason.
 * @throws {CommandError} when `begin` fails (the executor then runs the script without one),
 *   named after the script's command (`options.command`) the transaction began before;
 *   `HOST_GONE` always as not started (that command is told, the next begins again).
 */
export async function beginLinkedTransaction(
  host: LinkedTransactionHost,
  methods: LinkedTransactionMethods,
  options: DccTransactionOptions,
): Promise<DccTransaction> {
  const launches = host.launches();
  const exits = host.exits?.();
  // Errors (a restart notice above all) are the script's command's: name it, not the method.
  const command = options.command ?? methods.begin;
  try {
    await host.caller.call(command, methods.begin, { label: options.label }, options.signal);
  } catch (error) {
    // A DCC that died under the begin took its undo step with it: nothing of the script ran on
    // the one now starting. Not started, so the script's first command is told the DCC is gone
    // (instead of running without a transaction on the new one) and the next command begins again.
    if (error instanceof CommandError && error.code === "HOST_GONE") {
      throw new CommandError({
        command: error.command,
        code: error.code,
        message: error.message,
        completion: "not_started",
        data: error.data,
        cause: error,
      });
    }
    throw error;
  }
  let ended: Promise<DccTransactionReport> | undefined;
  const end = (rollback: boolean): Promise<DccTransactionReport> => {
    const restarted: DccTransactionReport = {
      rolledBack: false,
      reason: "host_restarted",
      detail: `${host.displayName} was restarted during the script; its scene is a new one`,
    };
    ended ??= (async (): Promise<DccTransactionReport> => {
      if (host.launches() !== launches || host.exits?.() !== exits) return restarted;
      try {
        const report = await host.caller.call(
          methods.end,
          methods.end,
          { rollback },
          options.signal,
        );
        if (!isReport(report)) {
          return {
            rolledBack: false,
            reason: "failed",
            detail: `${methods.end} answered ${JSON.stringify(report)?.slice(0, 200)}, not a transaction report`,
          };
        }
        return report;
      } catch (error) {
        // The DCC died under the end (or before it, unnoticed until now): its scene is gone.
        if (error instanceof CommandError && error.code === "HOST_GONE") return restarted;
        return {
          rolledBack: false,
          reason: "failed",
          detail: error instanceof Error ? error.message : String(error),
        };
      }
    })();
    return ended;
  };
  return { commit: () => end(false), rollback: () => end(true) };
}

function isReport(value: unknown): value is DccTransactionReport {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { rolledBack?: unknown }).rolledBack === "boolean"
  );
}
