// The logs of one run: entries past the entry or character limit are counted, not kept, and one
// closing warning says how many were dropped.
import type { ExecuteLogEntry } from "../execute-options.ts";
import type { LogLevel, RunLimits } from "./sandbox-types.ts";

const logLevels = new Set<string>(["log", "info", "warn", "error"]);

/** Collects a run's log entries within its limits. */
export class LogBuffer {
  readonly #limits: Pick<RunLimits, "maxLogEntries" | "maxLogChars">;
  readonly #entries: ExecuteLogEntry[] = [];
  #chars = 0;
  #dropped = 0;

  constructor(limits: Pick<RunLimits, "maxLogEntries" | "maxLogChars">) {
    this.#limits = limits;
  }

  /** Keeps one entry; returns it, or undefined when the level is unknown or a limit is reached. */
  add(level: string, message: string): ExecuteLogEntry | undefined {
    if (!logLevels.has(level)) return undefined;
    const { maxLogEntries, maxLogChars } = this.#limits;
    if (this.#entries.length >= maxLogEntries || this.#chars + message.length > maxLogChars) {
      this.#dropped++;
      return undefined;
    }
    this.#chars += message.length;
    const entry: ExecuteLogEntry = { level: level as LogLevel, message };
    this.#entries.push(entry);
    return entry;
  }

  /** The kept entries, closed by a warning when some were dropped. */
  finish(): ExecuteLogEntry[] {
    if (this.#dropped > 0) {
      const dropped = this.#dropped;
      this.#entries.push({
        level: "warn",
        message: `[${dropped} more log entr${dropped === 1 ? "y" : "ies"} dropped: log limit of ${this.#limits.maxLogEntries} entries or ${this.#limits.maxLogChars} characters reached]`,
      });
    }
    return this.#entries;
  }
}
