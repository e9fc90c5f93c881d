import { DccMcpError } from "@dcc/cancel";
import { type ApprovalRule, approvalRuleNames } from "./approval.ts";
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
  /** Which approval rules are on (see {@link AdapterApprovalOptions}). */
  approval?: AdapterApprovalOptions;
}

/** The approval rules an adapter's executor asks before. */
export interface AdapterApprovalOptions {
  /**
   * Rules to turn on by name: the shared ones (`delete`, `overwrite`, `open`, `render`), as the
   * adapter declares them (see `DccAdapter.approvalRules`), or the name of a rule in `rules`.
   */
  ask: readonly string[];
  /** Custom rules (e.g. from `commandApprovalRule`); each is on when `ask` names it. */
  rules?: readonly ApprovalRule[];
  /** Bound on one question, in seconds (default 120, at most 86400). */
  timeoutSecs?: number;
}

/**
 * The executor for one adapter: its commands on a fresh `ToolRegistry`, one `ToolDispatcher`
 * (host commands run one at a time, as on the DCC's main thread) and its catalog for search.
 * Call it after the adapter's `start` has settled. Closing the executor leaves the adapter open.
 * The adapter's `scriptsAtOnce` sizes the executor's own pool (a given `pool` must be no larger),
 * and its `dispatchLane` is asked for as each script is submitted; its `beginTransaction` makes
 * each script that reaches the host a transaction (see `DccAdapter.beginTransaction`).
 * @throws {DccMcpError} `INVALID_COMMAND` or `DUPLICATE_COMMAND` for bad commands,
 *   `INVALID_APPROVAL_RULE` for an `approval.ask` name that is neither shared nor a given rule's,
 *   or a rule naming a command the adapter does not have,
 *   `INVALID_LIMITS` for bad limits or a pool larger than `scriptsAtOnce`; and whatever the adapter's `commands()` or `catalog()` throw.
 */
export function createAdapterExecutor(
  adapter: DccAdapter,
  options: AdapterExecutorOptions = {},
): DccApiExecutor {
  const registry = new ToolRegistry().registerAll(adapter.commands());
  const catalog = adapter.catalog();
  const approval =
    options.approval === undefined ? undefined : activeRules(adapter, registry, options.approval);
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
    ...(approval === undefined ? {} : { approval }),
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

/** The rules of `approval.ask`: the adapter's and the custom ones, checked against the commands. */
function activeRules(
  adapter: DccAdapter,
  registry: ToolRegistry,
  approval: AdapterApprovalOptions,
): { rules: ApprovalRule[]; timeoutSecs?: number } {
  const custom = approval.rules ?? [];
  const known = new Set<string>([
    ...Object.values(approvalRuleNames),
    ...custom.map((rule) => rule.name),
  ]);
  for (const name of approval.ask) {
    if (!known.has(name)) {
      throw new DccMcpError({
        code: "INVALID_APPROVAL_RULE",
        message: `Unknown approval rule '${name}': use one of ${[...known].join(", ")}, or define it as a custom rule`,
      });
    }
  }
  const ask = new Set(approval.ask);
  const rules = [...(adapter.approvalRules?.() ?? []), ...custom].filter((rule) =>
    ask.has(rule.name),
  );
  for (const rule of rules) {
    const missing = rule.commands.filter((command) => registry.get(command) === undefined);
    if (missing.length > 0 && custom.includes(rule)) {
      throw new DccMcpError({
        code: "INVALID_APPROVAL_RULE",
        message: `Approval rule '${rule.name}' names commands ${adapter.dccName} does not have: ${missing.join(", ")}`,
      });
    }
  }
  return {
    rules,
    ...(approval.timeoutSecs === undefined ? {} : { timeoutSecs: approval.timeoutSecs }),
  };
}
