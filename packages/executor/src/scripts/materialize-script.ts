import type { MaterializedScript } from "./materialized-script.ts";
import { type MaterializeOptions, ScriptStore } from "./script-store.ts";

/** Options for {@link materializeScript}: the store's root and clock plus one write's options. */
export interface MaterializeScriptOptions extends MaterializeOptions {
  /** The scripts root, from host configuration (never from tool arguments). */
  root: string;
  /** Clock in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * Writes `code` and its sidecar under `root`; a one-call form of {@link ScriptStore.materialize}.
 * Hosts that also resolve and clean up scripts keep one {@link ScriptStore} instead, which also
 * serialises concurrent calls for one reuse key.
 */
export function materializeScript(
  code: string,
  options: MaterializeScriptOptions,
): Promise<MaterializedScript> {
  const { root, now, ...materializeOptions } = options;
  const store = new ScriptStore(now === undefined ? { root } : { root, now });
  return store.materialize(code, materializeOptions);
}
