/**
 * One command in a {@link DccApiCatalog}: its name, an optional call signature and an optional
 * description. Any further fields a caller supplies are kept and returned by searches unchanged.
 * Every record the catalog hands out (`search`, `get`, iteration) has all three of `name`,
 * `signature` and `description`, in that order and as strings: `""` for one the caller left out.
 */
export interface CommandRecord {
  /** The command name, as the agent passes it to `dispatch`. */
  name: string;
  /** Call signature text, e.g. `polySphere(radius: float = 1) -> List[str]`. */
  signature?: string;
  /** What the command does, in plain words. */
  description?: string;
  /** Caller-defined extra fields, kept as given. */
  [extra: string]: unknown;
}

/** Fields accepted by {@link DccApiCatalog.addCommand}. */
export interface AddCommandOptions {
  /** Call signature text; defaults to `""`. */
  signature?: string;
  /** Description; defaults to `""`. */
  description?: string;
}
