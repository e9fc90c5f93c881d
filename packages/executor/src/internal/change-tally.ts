// What a script's commands reported creating and removing, for its result's stats (and so the
// audit log): commands whose value is a change report (`{ created: [...], removed: [...] }`, as
// Blender's operators return) are read; any other value is passed over. Bounded.
import type { ExecuteChanges } from "../execute-result.ts";

/** Most entries kept in each of `created` and `removed`; `more` counts the rest. */
export const maxChangeEntries = 50;
const maxEntryChars = 200;

/** The changes of one execution. */
export class ChangeTally {
  readonly #created: string[] = [];
  readonly #removed: string[] = [];
  readonly #more = { created: 0, removed: 0 };

  /** Reads one command's value. */
  add(value: unknown): void {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return;
    const report = value as Record<string, unknown>;
    const more = report["more"];
    const counted =
      more !== null && typeof more === "object" ? (more as Record<string, unknown>) : {};
    this.#take("created", report["created"], counted["created"]);
    this.#take("removed", report["removed"], counted["removed"]);
  }

  /** The changes as plain data; undefined when no command reported any. */
  toJSON(): ExecuteChanges | undefined {
    const { created, removed } = this.#more;
    if (this.#created.length + this.#removed.length + created + removed === 0) return undefined;
    return {
      created: [...this.#created],
      removed: [...this.#removed],
      ...(created + removed === 0
        ? {}
        : { more: { ...(created > 0 ? { created } : {}), ...(removed > 0 ? { removed } : {}) } }),
    };
  }

  #take(kind: "created" | "removed", list: unknown, more: unknown): void {
    if (!Array.isArray(list)) return;
    const into = kind === "created" ? this.#created : this.#removed;
    for (const entry of list) {
      const text = describe(entry);
      if (text === undefined) continue;
      if (into.length < maxChangeEntries) into.push(text);
      else this.#more[kind] += 1;
    }
    // The command's own cut (e.g. Blender lists 100 and counts the rest).
    if (typeof more === "number" && Number.isSafeInteger(more) && more > 0)
      this.#more[kind] += more;
  }
}

/** A data-block reference as one string: its path, else `type name`, else the string itself. */
function describe(entry: unknown): string | undefined {
  let text: string | undefined;
  if (typeof entry === "string") text = entry;
  else if (entry !== null && typeof entry === "object") {
    const fields = entry as Record<string, unknown>;
    if (typeof fields["path"] === "string") text = fields["path"];
    else if (typeof fields["name"] === "string") {
      text =
        typeof fields["type"] === "string" ? `${fields["type"]} ${fields["name"]}` : fields["name"];
    }
  }
  if (text === undefined || text === "") return undefined;
  return text.length > maxEntryChars ? `${text.slice(0, maxEntryChars - 1)}…` : text;
}
