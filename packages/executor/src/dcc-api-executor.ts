import { DccMcpError } from "@dcc/cancel";
import { type CommandRecord, DccApiCatalog, type SearchLimits, searchLimits } from "@dcc/catalog";
import type { ApprovalRule } from "./approval.ts";
import type { DccTransaction, DccTransactionOptions } from "./dcc-transaction.ts";
import type { DispatchLane } from "./dispatch-lane.ts";
import type { ExecuteOptions } from "./execute-options.ts";
import type { ExecuteResult } from "./execute-result.ts";
import { type ExecutorLimits, resolveExecutorLimits } from "./executor-limits.ts";
import { type DccHold, holdOf } from "./internal/dcc-hold.ts";
import { pythonRepr } from "./internal/python-repr.ts";
import { type RunScriptOptions, runScript } from "./internal/run-script.ts";
import { SandboxPool } from "./sandbox-pool.ts";
import { isEntryPointScript } from "./scripts/analyze-script.ts";
import type { ExecuteParamsRequest } from "./scripts/execute-params.ts";
import {
  executeParamsOn,
  type MaterializeOnExecuteOptions,
  materializeOnExecute,
  type ScriptExecutionHost,
} from "./scripts/script-execution.ts";
import { ScriptStore } from "./scripts/script-store.ts";
import type { ToolDispatcher } from "./tool-dispatcher.ts";

/** Options for {@link DccApiExecutor}. */
export interface DccApiExecutorOptions {
  /**
   * Commands `search` looks in. Default: a catalog of the dispatcher's registered commands as
   * they are at construction (empty without a dispatcher).
   */
  catalog?: DccApiCatalog;
  /** Runs the host commands scripts `dispatch` to; without one, `dispatch` always fails. */
  dispatcher?: ToolDispatcher;
  /** Overrides of the default {@link ExecutorLimits}. */
  limits?: Partial<ExecutorLimits>;
  /** A shared worker pool; by default the executor starts its own and `close()` ends it. */
  pool?: SandboxPool;
  /**
   * How many scripts may run at once: the size of the executor's own pool (default: available
   * cores, 1 to 4). A script beyond it waits for one to end, within its own timeout. A given
   * `pool` must be no larger. Scripts' changes to the host never interleave whatever it is: a
   * script holds the DCC from its first command that may change the scene (one not marked
   * `readOnly`) until its transaction has ended, and other scripts' reads run between its
   * commands, except while its commit or rollback is under way.
   */
  scriptsAtOnce?: number;
  /**
   * Commands the sandbox thread runs itself, without the main thread (see {@link DispatchLane}):
   * asked for as each script is submitted; undefined runs that script without one.
   */
  dispatchLane?: () => DispatchLane | undefined;
  /**
   * Materialized scripts: a {@link ScriptStore} or its root directory, from host configuration
   * (never from tool arguments). Enables {@link DccApiExecutor.executeParams} and makes `execute`
   * store typed entry points instead of running them.
   */
  scripts?: ScriptStore | string;
  /**
   * Begins a script's transaction on the host (see `DccAdapter.beginTransaction`). Without it
   * the host has no undo: failed scripts keep their changes and their results say so.
   */
  beginTransaction?: (options: DccTransactionOptions) => Promise<DccTransaction>;
  /**
   * Bound, in milliseconds, on each transaction wait: for `begin`, for a stopped script's host
   * command to settle before the rollback, and for `commit`/`rollback`. Default 30000.
   */
  transactionWaitMs?: number;
  /**
   * Tracing (OpenTelemetry, through `@opentelemetry/api`; nothing without a registered SDK):
   * how many of a script's host calls get a `dispatch <command>` child span of its `dcc.script`
   * span. Later calls get none; every call is counted, per command, in the script span's
   * `dcc.host_calls.summary` event. Default 100; 0 traces no host call on its own.
   */
  maxHostCallSpans?: number;
  /**
   * Approval rules that are on: a script's command under one waits (its clock stopped) until the
   * person asked through `ExecuteOptions.approve` says yes, and fails with `APPROVAL_DENIED`
   * otherwise. One answer covers the rest of the script for that rule.
   */
  approval?: ApprovalSettings;
}

/** The approval rules an executor asks before (see `DccApiExecutorOptions.approval`). */
export interface ApprovalSettings {
  /** The rules that are on. */
  rules: readonly ApprovalRule[];
  /**
   * Bound on one question, in seconds (default 120, at most 86400): with no answer by then the
   * command is denied (`reason: "timeout"`).
   */
  timeoutSecs?: number;
}

/**
 * Options for {@link DccApiExecutor.execute}: {@link ExecuteOptions} plus where a typed entry
 * point is filed.
 */
export interface ExecuteCodeOptions extends ExecuteOptions {
  /** Path segments, TTL and provenance of a typed entry point that `execute` materializes. */
  materialize?: MaterializeOnExecuteOptions;
}

/** Options for {@link DccApiExecutor.search}. */
export interface SearchOptions {
  /** Most results, 1 to 50 (default 10, see `searchLimits`); other values are clamped. */
  limit?: number;
}

/** The JSON result of {@link DccApiExecutor.search}. */
export interface SearchResult {
  success: true;
  /** `Found N command(s) matching 'q'.` or `No commands found matching 'q' in the {dcc} catalog.` */
  message: string;
  results: CommandRecord[];
  /** Present when nothing matched. */
  hint?: string;
}

const noHitsHint =
  "Try a broader query or fewer words; search matches command names, descriptions and signatures.";

/**
 * The two tools of code orchestration for one DCC: {@link DccApiExecutor.search} finds commands
 * in a catalog, {@link DccApiExecutor.execute} runs an agent's script in a QuickJS sandbox on a
 * worker thread, where `dispatch(name, args)` calls host commands through the dispatcher.
 */
export class DccApiExecutor {
  /** DCC identifier used in messages, e.g. `"maya"`. */
  readonly dccName: string;
  /** The catalog `search` uses. */
  readonly catalog: DccApiCatalog;
  /** The dispatcher scripts call into, if any. */
  readonly dispatcher: ToolDispatcher | undefined;
  /**
   * The resolved limits. The MCP bridge builds `dcc_execute`'s input schema from them (the
   * `timeout_secs` default and maximum, the `code` length), so they are the only copy.
   */
  readonly limits: Readonly<ExecutorLimits>;
  /** The range of `search`'s `limit` (the catalog's); `dcc_search`'s schema is built from it. */
  readonly searchLimits: Readonly<SearchLimits> = searchLimits;
  /** The store of materialized scripts, if configured. */
  readonly scripts: ScriptStore | undefined;
  /** True when failed scripts are rolled back (the host has transactions). */
  readonly rollsBack: boolean;
  #pool: SandboxPool;
  readonly #beginTransaction: DccApiExecutorOptions["beginTransaction"];
  readonly #transactionWaitMs: number;
  readonly #maxHostCallSpans: number;
  readonly #approval: { rules: readonly ApprovalRule[]; timeoutMs: number } | undefined;
  readonly #hold: DccHold | undefined;
  readonly #lane: (() => DispatchLane | undefined) | undefined;
  #ownsPool: boolean;
  /** What the materialized-script paths run through: this executor's name and run. */
  #scriptHost: ScriptExecutionHost;

  /**
   * @throws {DccMcpError} code `INVALID_LIMITS` for a bad limit, a pool too small for it, a
   *   `scriptsAtOnce` that is not a positive integer or a pool larger than it, or a bad
   *   `transactionWaitMs`, `maxHostCallSpans` or `approval.timeoutSecs`; code
   *   `INVALID_APPROVAL_RULE` for an approval rule without a kebab-case name or a commands list.
   */
  constructor(dccName: string, options: DccApiExecutorOptions = {}) {
    this.dccName = dccName;
    this.catalog =
      options.catalog ??
      new DccApiCatalog(dccName, { commands: options.dispatcher?.registry.catalogRecords() ?? [] });
    this.dispatcher = options.dispatcher;
    this.#hold = options.dispatcher === undefined ? undefined : holdOf(options.dispatcher);
    this.#lane = options.dispatchLane;
    this.#beginTransaction = options.beginTransaction;
    this.rollsBack = options.beginTransaction !== undefined;
    const waitMs = options.transactionWaitMs ?? 30_000;
    if (typeof waitMs !== "number" || !Number.isFinite(waitMs) || waitMs <= 0) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `transactionWaitMs must be a positive number of milliseconds, not ${String(waitMs)}`,
      });
    }
    this.#transactionWaitMs = waitMs;
    const spans = options.maxHostCallSpans ?? 100;
    if (typeof spans !== "number" || !Number.isInteger(spans) || spans < 0) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `maxHostCallSpans must be a whole number of at least 0, not ${String(spans)}`,
      });
    }
    this.#maxHostCallSpans = spans;
    this.#approval = approvalOf(options.approval);
    this.limits = Object.freeze(resolveExecutorLimits(options.limits));
    this.scripts =
      typeof options.scripts === "string"
        ? new ScriptStore({ root: options.scripts })
        : options.scripts;
    if (options.pool !== undefined && options.pool.memoryBytes < this.limits.memoryBytes) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `limits.memoryBytes (${this.limits.memoryBytes}) exceeds the pool's memoryBytes (${options.pool.memoryBytes})`,
      });
    }
    const { scriptsAtOnce } = options;
    if (
      scriptsAtOnce !== undefined &&
      (typeof scriptsAtOnce !== "number" || !Number.isInteger(scriptsAtOnce) || scriptsAtOnce < 1)
    ) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `scriptsAtOnce must be a positive integer, not ${String(scriptsAtOnce)}`,
      });
    }
    if (
      scriptsAtOnce !== undefined &&
      options.pool !== undefined &&
      options.pool.size > scriptsAtOnce
    ) {
      throw new DccMcpError({
        code: "INVALID_LIMITS",
        message: `${dccName} runs at most ${scriptsAtOnce} script(s) at once, but the given pool runs ${options.pool.size}: give a pool of that size, or none`,
      });
    }
    this.#ownsPool = options.pool === undefined;
    this.#pool =
      options.pool ??
      new SandboxPool({
        memoryBytes: this.limits.memoryBytes,
        ...(scriptsAtOnce === undefined ? {} : { size: scriptsAtOnce }),
      });
    this.#scriptHost = { dccName, run: (code, options) => this.#run(code, options) };
  }

  /** The worker pool executions run on. */
  get pool(): SandboxPool {
    return this.#pool;
  }

  /** Searches the catalog; the message quotes the query as upstream does (Python repr). */
  search(query: string, options: SearchOptions = {}): SearchResult {
    const text = String(query);
    const { defaultLimit, maxLimit } = this.searchLimits;
    const requested = options.limit ?? defaultLimit;
    const limit = Number.isFinite(requested)
      ? Math.min(maxLimit, Math.max(1, Math.trunc(requested)))
      : defaultLimit;
    const results = this.catalog.search(text, { limit });
    const quoted = pythonRepr(text);
    if (results.length > 0) {
      return {
        success: true,
        message: `Found ${results.length} command(s) matching ${quoted}.`,
        results,
      };
    }
    return {
      success: true,
      message: `No commands found matching ${quoted} in the ${this.dccName} catalog.`,
      results: [],
      hint: noHitsHint,
    };
  }

  /**
   * Runs an agent's script and reports the result as JSON. Never throws: invalid input, script
   * errors, limits, timeouts and cancellation all come back as an {@link ExecuteFailure}.
   * Cancellation comes from `options.signal`, `options.cancelToken`, or the ambient token of the
   * caller's `withCancelToken` context; host commands run inside the caller's cancel context.
   *
   * With a scripts store, a typed entry point (a top-level `function main(...)`, no top-level
   * `return`, no call of `main`) is materialized instead of run: the result gives its `filePath`
   * and `parametersSchema` for {@link DccApiExecutor.executeParams}.
   */
  execute(code: string, options: ExecuteCodeOptions = {}): Promise<ExecuteResult> {
    const { materialize, ...runOptions } = options;
    if (
      this.scripts !== undefined &&
      typeof code === "string" &&
      code.length <= this.limits.maxCodeChars &&
      isEntryPointScript(code)
    ) {
      return materializeOnExecute(this.#scriptHost, this.scripts, code, materialize);
    }
    return this.#run(code, runOptions);
  }

  /**
   * Calls `main` of a materialized script with named `params`: the path is confined to the
   * scripts root, `sha256` checked when given, the schema re-derived from the file and `params`
   * validated (every failing field listed), then the body and `main` run in the same sandbox,
   * dispatcher and timeout as `execute`. `context.materialized_script` describes the file.
   * Never throws: problems come back as an `INVALID_INPUT` failure.
   */
  executeParams(
    request: ExecuteParamsRequest,
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    return executeParamsOn(this.#scriptHost, this.scripts, request, options);
  }

  #run(code: unknown, options: RunScriptOptions): Promise<ExecuteResult> {
    return runScript(
      {
        dccName: this.dccName,
        limits: this.limits,
        pool: this.#pool,
        dispatcher: this.dispatcher,
        lane: this.#lane,
        beginTransaction: this.#beginTransaction,
        hold: this.#hold,
        transactionWaitMs: this.#transactionWaitMs,
        maxHostCallSpans: this.#maxHostCallSpans,
        approval: this.#approval,
      },
      code,
      options,
    );
  }

  /** Ends the executor's own worker pool (a shared pool is left to its owner). Idempotent. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.close();
  }
}

/** The longest bound on one approval question: a day. */
const maxApprovalTimeoutSecs = 86_400;

/** The checked approval settings, or undefined when no rule is on. */
function approvalOf(
  settings: ApprovalSettings | undefined,
): { rules: readonly ApprovalRule[]; timeoutMs: number } | undefined {
  if (settings === undefined || settings.rules.length === 0) return undefined;
  const timeoutSecs = settings.timeoutSecs ?? 120;
  // Bounded: a timer longer than 2^31 ms fires at once, and a paused clock stays off ~12 days.
  if (
    typeof timeoutSecs !== "number" ||
    !Number.isFinite(timeoutSecs) ||
    timeoutSecs <= 0 ||
    timeoutSecs > maxApprovalTimeoutSecs
  ) {
    throw new DccMcpError({
      code: "INVALID_LIMITS",
      message: `approval.timeoutSecs must be a positive number of seconds up to ${maxApprovalTimeoutSecs} (a day), not ${String(timeoutSecs)}`,
    });
  }
  for (const rule of settings.rules) {
    if (typeof rule?.name !== "string" || !/^[a-z][a-z0-9-]*$/.test(rule.name)) {
      throw new DccMcpError({
        code: "INVALID_APPROVAL_RULE",
        message: `An approval rule's name must be lowercase kebab-case, not ${JSON.stringify(rule?.name)}`,
      });
    }
    if (!Array.isArray(rule.commands)) {
      throw new DccMcpError({
        code: "INVALID_APPROVAL_RULE",
        message: `Approval rule '${rule.name}' has no commands list`,
      });
    }
  }
  return { rules: [...settings.rules], timeoutMs: Math.round(timeoutSecs * 1000) };
}
