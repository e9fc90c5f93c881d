import type { DccAdapter } from "./dcc-adapter.ts";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import type { ExecutorLimits } from "./executor-limits.ts";
import type { SandboxPool } from "./sandbox-pool.ts";
import type { ScriptStore } from "./scripts/script-store.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

/** Options for {@link createAdapterExecutor}. */
export interface AdapterExecutorOptions {
  /** The executor's name in messages; default the adapter's `dccName`. */
  name?: string;
  /** Overrides of the default sandbox limits. */
  limits?: Partial<ExecutorLimits>;
  /** Materialized scripts: a store or its root directory (see `DccApiExecutorOptions.scripts`). */
  scripts?: ScriptStore | string;
  /** A shared worker pool; by default the executor starts its own and `close()` ends it. */
  pool?: SandboxPool;
  /** Bound on each transaction wait (see `DccApiExecutorOptions.transactionWaitMs`). */
  transactionWaitMs?: number;
  /** Host calls per script traced as spans (see `DccApiExecutorOptions.maxHostCallSpans`). */
  maxHostCallSpans?: number;
}

/**
 * The executor for one adapter: its commands on a fresh `ToolRegistry`, one `ToolDispatcher`
 * (host commands run one at a time, as on the DCC's main thread) and its catalog for search.
 * Call it after the adapter's `start` has settled. Closing the executor leaves the adapter open.
 * The adapter's `scriptsAtOnce` sizes the executor's own pool (a given `pool` must be no larger),
 * and its `dispatchLane` is asked for as each script is submitted; its `beginTransaction` makes
 * each script that reaches the host a transaction (see `DccAdapter.beginTransaction`).
 * @throws {DccMcpError} `INVALID_COMMAND` or `DUPLICATE_COMMAND` for bad commands,
 *   `INVALID_LIMITS` for bad limits or a pool larger than `scriptsAtOnce`; and whatever the adapter's `commands()` or `catalog()` throw.
 */
export function createAdapterExecutor(
  adapter: DccAdapter,
  options: AdapterExecutorOptions = {},
): DccApiExecutor {
  const registry = new ToolRegistry().registerAll(adapter.commands());
  const catalog = adapter.catalog();
  return new DccApiExecutor(options.name ?? adapter.dccName, {
    catalog,
    dispatcher: new ToolDispatcher(registry),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.scripts === undefined ? {} : { scripts: options.scripts }),
    ...(options.pool === undefined ? {} : { pool: options.pool }),
    ...(options.transactionWaitMs === undefined
      ? {}
      : { transactionWaitMs: options.transactionWaitMs }),
    ...(options.maxHostCallSpans === undefined
      ? {}
      : { maxHostCallSpans: options.maxHostCallSpans }),
    ...(adapter.scriptsAtOnce === undefined ? {} : { scriptsAtOnce: adapter.scriptsAtOnce }),
    ...(adapter.dispatchLane === undefined ? {} : { dispatchLane: () => adapter.dispatchLane?.() }),
    ...(adapter.beginTransaction === undefined
      ? {}
      : {
          beginTransaction: (transaction) =>
            (adapter.beginTransaction as NonNullable<DccAdapter["beginTransaction"]>).call(
              adapter,
              transaction,
            ),
        }),
  });
}
