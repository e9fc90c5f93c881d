// One call as an approval rule reads it: the dispatch convention split into positional arguments
// and flags (as the adapters split it), flags looked up by any of their names.
import { toMayaCall } from "../../host/internal/maya-call.ts";

/** A script's call of a Maya command, for a rule's `covers`. */
export class RuleCall {
  readonly args: readonly unknown[];
  readonly flags: Readonly<Record<string, unknown>>;

  constructor(raw: unknown) {
    const { args, flags } = toMayaCall(raw);
    this.args = args;
    this.flags = flags;
  }

  /** The value of a flag under the first of its names (long, then short) the call uses. */
  flag(...names: readonly string[]): unknown {
    for (const name of names) {
      if (Object.hasOwn(this.flags, name)) return this.flags[name];
    }
    return undefined;
  }

  /** Whether a boolean flag is set (Maya takes 1 for true too). */
  on(...names: readonly string[]): boolean {
    const value = this.flag(...names);
    return value === true || value === 1;
  }

  /** A string flag's value, if it is one. */
  text(...names: readonly string[]): string | undefined {
    const value = this.flag(...names);
    return typeof value === "string" && value !== "" ? value : undefined;
  }

  /** Query mode (`query`/`q`): reads, never acts. */
  get query(): boolean {
    return this.on("query", "q");
  }

  /** The object names among the positional arguments (arrays flattened), from `from` on. */
  names(from = 0): string[] {
    return this.args.slice(from).flatMap(function flat(value: unknown): string[] {
      if (typeof value === "string") return value === "" ? [] : [value];
      return Array.isArray(value) ? value.flatMap(flat) : [];
    });
  }
}
