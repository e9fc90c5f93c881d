// How often a script called each host command, for its result's stats (and so the audit log).
// Bounded: a script looping over made-up names cannot grow the record past a fixed size.

/** Most distinct command names kept; calls of further names are counted under {@link otherCommands}. */
export const maxCountedCommands = 200;
/** The key that counts calls beyond {@link maxCountedCommands} names, or of over-long names. */
export const otherCommands = "(other)";
const maxNameLength = 128;

/** Counts of one execution's host commands by name. */
export class CommandCounts {
  readonly #counts = new Map<string, number>();

  /** Counts one call of `name`. */
  add(name: string): void {
    const known = this.#counts.get(name);
    if (known !== undefined) {
      this.#counts.set(name, known + 1);
      return;
    }
    const key =
      name.length > maxNameLength || this.#counts.size >= maxCountedCommands ? otherCommands : name;
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  /** The counts as a plain object; undefined when no command was called. */
  toJSON(): Record<string, number> | undefined {
    if (this.#counts.size === 0) return undefined;
    return Object.fromEntries(this.#counts);
  }
}
