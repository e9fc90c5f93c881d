import type { DccAdapter, DccApiExecutor, DccToolNames } from "@dcc/executor";

/**
 * Where one adapter of a composed server stands. `ready`: serving. `restarting`: its host went
 * away and is being brought back (scripts still run, their commands wait for it; `/readyz` fails
 * with the reason). `unavailable`: its host reported that it went away (scripts are refused with
 * `HOST_UNAVAILABLE`, search still works) and may come back. `failed`: its `start` rejected or
 * timed out, or its commands or catalog could not be read; its tools answer `HOST_UNAVAILABLE`
 * with the reason. `closed`: after shutdown.
 */
export type DccAdapterStatus =
  | { readonly state: "ready" }
  | { readonly state: "restarting"; readonly reason: string }
  | { readonly state: "unavailable"; readonly reason: string }
  | { readonly state: "failed"; readonly reason: string }
  | { readonly state: "closed" };

/** One adapter as a composed server runs it. */
export interface DccServerAdapter {
  /** Instance name: tool prefix with several adapters, and the DCC name in messages. */
  readonly name: string;
  /** The adapter. */
  readonly adapter: DccAdapter;
  /** Its pair of tools. */
  readonly tools: DccToolNames;
  /** The executor behind its tools; `undefined` when it failed before one could be built. */
  readonly executor: DccApiExecutor | undefined;
  /** Its current status. */
  readonly status: DccAdapterStatus;
}
