import type { DccTransactionReport } from "@dcc/executor";
import type { LinkedRecoveryCopy, LinkedRecoveryMethods } from "../linked-recovery.ts";

/** How the keeper reaches the DCC: straight to the running process, never through a notice. */
export type RecoveryCall = (
  method: string,
  params: Readonly<Record<string, unknown>>,
  timeoutMs: number,
) => Promise<unknown>;

/** What {@link RecoveryKeeper} needs of its host. */
export interface RecoveryKeeperOptions {
  readonly methods: LinkedRecoveryMethods;
  readonly displayName: string;
  readonly call: RecoveryCall;
  /** Whether the host can take a save now (running, no restart under way). */
  readonly ready: () => boolean;
  /** How many times the host was launched, the first included. */
  readonly launches: () => number;
}

/**
 * Keeps the recovery copy of a launched DCC's scene: after a committed script that changed it
 * (never while a script's transaction is open, so the copy holds only committed work), at most
 * once per `minIntervalMs`, and none when nothing changed; opens it after a restart and says,
 * in words for the restart notice, what came back and from when.
 */
export class RecoveryKeeper {
  readonly #options: RecoveryKeeperOptions;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  #copy: LinkedRecoveryCopy | undefined;
  #dirty = false;
  // Committed scripts with changes that are not in the copy yet, and the last one's name.
  #unsaved = 0;
  #label = "";
  readonly #open = new Set<object>();
  #lastSaveAt = Number.NEGATIVE_INFINITY;
  #saving: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failure: string | undefined;
  #closed = false;

  constructor(options: RecoveryKeeperOptions) {
    this.#options = options;
    this.#intervalMs = options.methods.minIntervalMs ?? 10_000;
    this.#timeoutMs = options.methods.timeoutMs ?? 120_000;
  }

  /** The last copy saved, if any. */
  get copy(): LinkedRecoveryCopy | undefined {
    return this.#copy;
  }

  /** A script's transaction began: no save until it ends. Returns its token for {@link ended}. */
  began(): object {
    const token = {};
    this.#open.add(token);
    return token;
  }

  /** A script's transaction ended with `report`: a committed change is saved (bounded). */
  ended(token: object, report: DccTransactionReport): void {
    // One that began before a restart ended on a scene that is gone: nothing to save of it.
    if (!this.#open.delete(token)) return;
    // A commit with an undo step changed the scene; so did a rollback that did not happen.
    const changed = report.rolledBack
      ? false
      : report.undoStep !== undefined ||
        (report.reason !== undefined && report.reason !== "host_restarted");
    if (changed) {
      this.#dirty = true;
      this.#unsaved += 1;
      this.#label = report.undoStep ?? this.#label;
    }
    this.#consider();
  }

  /** Saves now if there is something to save and the interval allows, else later. */
  #consider(): void {
    if (this.#closed || !this.#dirty || this.#open.size > 0 || this.#saving !== undefined) return;
    const wait = this.#lastSaveAt + this.#intervalMs - Date.now();
    if (wait > 0) {
      if (this.#timer === undefined) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#consider();
        }, wait);
        this.#timer.unref();
      }
      return;
    }
    if (!this.#options.ready()) return; // a restart under way: its restore decides
    this.#saving = this.#save().finally(() => {
      this.#saving = undefined;
      this.#consider();
    });
  }

  async #save(): Promise<void> {
    const label = this.#label;
    const unsaved = this.#unsaved;
    const launch = this.#options.launches();
    this.#dirty = false;
    this.#unsaved = 0;
    this.#lastSaveAt = Date.now();
    try {
      const answer = (await this.#options.call(
        this.#options.methods.save,
        {},
        this.#timeoutMs,
      )) as {
        saved?: unknown;
        objects?: unknown;
      };
      if (answer?.saved !== true) throw new Error(`${this.#options.methods.save} saved nothing`);
      const objects = typeof answer.objects === "number" ? answer.objects : undefined;
      this.#copy = { savedAt: new Date(), label, objects, launch };
      this.#failure = undefined;
    } catch (error) {
      // Not saved: the changes stay owed, and the next restart says the copy is older.
      if (this.#options.launches() === launch) {
        this.#dirty = true;
        this.#unsaved += unsaved;
      }
      this.#failure = error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * Opens the copy on the DCC just restarted; resolves with what the restart notice says after
   * "restarted" (what came back, from when, and what was lost).
   */
  async restore(): Promise<string> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#saving?.catch(() => undefined);
    const name = this.#options.displayName;
    const lost = this.#unsaved;
    const failure = this.#failure;
    // Whatever happens, the scene now is what the notice says: nothing is owed to a copy.
    this.#dirty = false;
    this.#unsaved = 0;
    this.#open.clear();
    const copy = this.#copy;
    const notSaved =
      lost === 0
        ? ""
        : `; the changes of ${lost === 1 ? "1 later script" : `${lost} later scripts`} were not in it yet and are lost${failure === undefined ? "" : ` (the last save failed: ${failure})`}`;
    if (copy === undefined) {
      const why =
        lost === 0
          ? `no script had changed the scene since ${name} started, so there was nothing to restore`
          : `none had been saved yet${failure === undefined ? "" : ` (${failure})`}, so the changes of ${lost === 1 ? "1 script" : `${lost} scripts`} are lost`;
      return `with its factory start-up scene: there was no recovery copy (${why})`;
    }
    try {
      const answer = (await this.#options.call(
        this.#options.methods.open,
        {},
        this.#timeoutMs,
      )) as {
        opened?: unknown;
        objects?: unknown;
      };
      if (answer?.opened !== true) throw new Error("the copy was not found");
      const objects = typeof answer.objects === "number" ? `, ${answer.objects} objects` : "";
      return `with the scene restored from its recovery copy saved at ${clock(copy.savedAt)} after "${copy.label}"${objects}${notSaved}`;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return `with its factory start-up scene: its recovery copy saved at ${clock(copy.savedAt)} could not be opened (${why}), so unsaved changes are lost`;
    }
  }

  /** Stops saving. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** `08:42:07 UTC`: a time an agent can compare with its own log. */
function clock(date: Date): string {
  return `${date.toISOString().slice(11, 19)} UTC`;
}
