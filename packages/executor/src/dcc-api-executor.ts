import {
  type CancellationProbe,
  CancelToken,
  captureCancelContext,
  currentCancelToken,
  DccMcpCancelledError,
  DccMcpError,
} from "@dcc/cancel";
import { type CommandRecord, DccApiCatalog, type SearchLimits, searchLimits } from "@dcc/catalog";
import { CommandError } from "./command-error.ts";
import { commandErrorCodes } from "./command-error-code.ts";
import type { ExecuteOptions } from "./execute-options.ts";
import type {
  ExecuteCompletion,
  ExecuteErrorCode,
  ExecuteFailure,
  ExecuteLimitName,
  ExecuteResult,
  JsonValue,
} from "./execute-result.ts";
import { type ExecutorLimits, resolveExecutorLimits } from "./executor-limits.ts";
import type { RunHooks } from "./internal/pooled-worker.ts";
import { pythonRepr } from "./internal/python-repr.ts";
import { SandboxPool } from "./sandbox-pool.ts";
import { isEntryPointScript } from "./scripts/analyze-script.ts";
import type { ExecuteParamsRequest } from "./scripts/execute-params.ts";
import {
  executeParamsOn,
  type MaterializeOnExecuteOptions,
  materializeOnExecute,
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
   * Materialized scripts: a {@link ScriptStore} or its root directory, from host configuration
   * (never from tool arguments). Enables {@link DccApiExecutor.executeParams} and makes `execute`
   * store typed entry points instead of running them.
   */
  scripts?: ScriptStore | string;
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

/**
 * Options of {@link DccApiExecutor.run}: {@link ExecuteOptions} plus an entry point to call after
 * the script body ran and extra `context` for a successful result.
 */
export interface RunScriptOptions extends ExecuteOptions {
  /** Calls `name(params)` after the body; its awaited value becomes the output. */
  entry?: { name: string; params: unknown };
  /** Reported as `context` on success (default `{}`). */
  context?: Record<string, JsonValue>;
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
  #pool: SandboxPool;
  #ownsPool: boolean;

  /** @throws {DccMcpError} code `INVALID_LIMITS` for a bad limit or a pool too small for it. */
  constructor(dccName: string, options: DccApiExecutorOptions = {}) {
    this.dccName = dccName;
    this.catalog =
      options.catalog ??
      new DccApiCatalog(dccName, { commands: options.dispatcher?.registry.catalogRecords() ?? [] });
    this.dispatcher = options.dispatcher;
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
    this.#ownsPool = options.pool === undefined;
    this.#pool = options.pool ?? new SandboxPool({ memoryBytes: this.limits.memoryBytes });
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
      return materializeOnExecute(this, this.scripts, code, materialize);
    }
    return this.run(code, runOptions);
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
    return executeParamsOn(this, this.scripts, request, options);
  }

  /**
   * The execution path behind {@link DccApiExecutor.execute}, reusable for materialized
   * scripts: `entry` calls a function the script defines, with JSON `params`.
   */
  async run(code: unknown, options: RunScriptOptions = {}): Promise<ExecuteResult> {
    const startedAt = performance.now();
    const { limits } = this;
    let hostCalls = 0;
    const stats = (dispatchCalls = hostCalls) => ({
      durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
      dispatchCalls,
    });
    const failure = (
      errorCode: ExecuteErrorCode,
      error: string,
      completion: ExecuteCompletion,
      extra: {
        limit?: ExecuteLimitName;
        logs?: ExecuteFailure["logs"];
        dispatchCalls?: number;
      } = {},
    ): ExecuteFailure => {
      const result: ExecuteFailure = {
        success: false,
        message: this.#message(errorCode),
        error,
        errorCode,
        logs: extra.logs ?? [],
        completion,
        stats: stats(extra.dispatchCalls),
      };
      if (extra.limit !== undefined) result.limit = extra.limit;
      return result;
    };

    // Input validation, before anything runs.
    if (code === undefined || code === null) {
      return failure("INVALID_INPUT", "Missing required 'code' string", "not_started");
    }
    if (typeof code !== "string") {
      return failure("INVALID_INPUT", "code must be a string", "not_started");
    }
    if (code.length > limits.maxCodeChars) {
      return failure(
        "INVALID_INPUT",
        `code is ${code.length} characters, over the code size limit of ${limits.maxCodeChars} characters`,
        "not_started",
        { limit: "code" },
      );
    }
    const timeoutSecs = options.timeoutSecs ?? limits.timeoutSecs;
    if (typeof timeoutSecs !== "number" || !Number.isInteger(timeoutSecs)) {
      return failure(
        "INVALID_INPUT",
        "timeoutSecs must be an integer number of seconds",
        "not_started",
      );
    }
    if (timeoutSecs <= 0) {
      return failure("INVALID_INPUT", "timeoutSecs must be greater than zero", "not_started");
    }
    if (timeoutSecs > limits.maxTimeoutSecs) {
      return failure(
        "INVALID_INPUT",
        `timeoutSecs must be at most ${limits.maxTimeoutSecs}`,
        "not_started",
      );
    }
    let entry: { name: string; paramsJson: string } | undefined;
    if (options.entry !== undefined) {
      let paramsJson: string | undefined;
      try {
        paramsJson = JSON.stringify(options.entry.params ?? null);
      } catch {
        // reported below
      }
      if (paramsJson === undefined) {
        return failure("INVALID_INPUT", "params must be JSON-serializable", "not_started");
      }
      entry = { name: options.entry.name, paramsJson };
    }

    // Cancellation: any source stops the sandbox and aborts the host command's signal.
    const stop = new AbortController();
    const hostAbort = new AbortController();
    let cancelReason: string | undefined;
    const cleanups: Array<() => void> = [];
    const cancel = (reason?: string): void => {
      if (stop.signal.aborted) return;
      cancelReason = reason;
      stop.abort();
      hostAbort.abort(new DccMcpCancelledError({ reason }));
    };
    const { signal, cancelToken } = options;
    if (signal !== undefined) {
      const onAbort = (): void => cancel(describeReason(signal.reason));
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener("abort", onAbort));
      }
    }
    if (cancelToken !== undefined) cleanups.push(cancelToken.onCancel(cancel));
    const ambient = currentCancelToken();
    if (ambient !== undefined && ambient !== cancelToken)
      cleanups.push(watchProbe(ambient, cancel));
    if (stop.signal.aborted) {
      for (const cleanup of cleanups) cleanup();
      return failure("CANCELLED", cancelledText(cancelReason), "not_started");
    }

    const inCallerContext = captureCancelContext();
    let inFlight = 0;
    const { onLog, onProgress } = options;
    const hooks: RunHooks = {
      onCall: (name, argsJson) => {
        if (stop.signal.aborted) {
          return errorReply(
            name,
            commandErrorCodes.cancelled,
            `${name} was not started: the script was stopped`,
          );
        }
        const dispatcher = this.dispatcher;
        if (dispatcher === undefined) {
          return errorReply(
            name,
            commandErrorCodes.noDispatcher,
            `No host commands are available on ${this.dccName}`,
          );
        }
        // Re-parsed on the host: plain data only, `__proto__` keys stay inert own properties.
        let args: unknown;
        try {
          args = JSON.parse(argsJson);
        } catch {
          return errorReply(
            name,
            commandErrorCodes.invalidArgs,
            "The arguments are not valid JSON",
          );
        }
        hostCalls++;
        const outcome = inCallerContext(() =>
          dispatcher.dispatchNow(name, args, { signal: hostAbort.signal }),
        );
        if (!(outcome instanceof Promise)) {
          return outcome.ok ? valueReply(name, outcome.value) : failureReply(name, outcome.error);
        }
        inFlight++;
        return outcome.then(
          (value) => {
            inFlight--;
            return valueReply(name, value);
          },
          (error: unknown) => {
            inFlight--;
            return failureReply(name, error);
          },
        );
      },
    };
    if (onLog !== undefined) hooks.onLog = (entry) => callSafely(() => onLog(entry));
    if (onProgress !== undefined)
      hooks.onProgress = (update) => callSafely(() => onProgress(update));

    const job = {
      code,
      limits: {
        memoryBytes: limits.memoryBytes,
        stackBytes: limits.stackBytes,
        maxOutputChars: limits.maxOutputChars,
        maxDispatchCalls: limits.maxDispatchCalls,
        maxLogEntries: limits.maxLogEntries,
        maxLogChars: limits.maxLogChars,
      },
      deadline: Date.now() + timeoutSecs * 1000,
      streamLogs: onLog !== undefined,
      streamProgress: onProgress !== undefined,
    };
    let outcome: Awaited<ReturnType<SandboxPool["run"]>>;
    try {
      outcome = await this.#pool.run(
        entry === undefined ? job : { ...job, entry },
        hooks,
        stop.signal,
      );
    } finally {
      for (const cleanup of cleanups) cleanup();
    }

    const hostStillRunning = inFlight > 0;
    if (hostStillRunning && !hostAbort.signal.aborted) {
      hostAbort.abort(
        new DccMcpCancelledError({
          message:
            outcome.status === "error" && outcome.errorCode === "TIMEOUT"
              ? "Script timed out"
              : "Script stopped",
        }),
      );
    }
    const dispatchCalls = Math.max(hostCalls, outcome.dispatchCalls);
    if (outcome.status === "ok") {
      return {
        success: true,
        message: `Script executed successfully on ${this.dccName}.`,
        output: JSON.parse(outcome.outputJson) as JsonValue,
        logs: outcome.logs,
        context: options.context ?? {},
        completion: "complete",
        stats: stats(dispatchCalls),
      };
    }
    const completion: ExecuteCompletion = !outcome.started
      ? "not_started"
      : hostStillRunning
        ? "unknown"
        : "complete";
    let error = outcome.error;
    if (outcome.errorCode === "TIMEOUT") error = `Script exceeded the ${timeoutSecs}s timeout`;
    if (outcome.errorCode === "CANCELLED") error = cancelledText(cancelReason, outcome.started);
    const extra: { limit?: ExecuteLimitName; logs: ExecuteFailure["logs"]; dispatchCalls: number } =
      { logs: outcome.logs, dispatchCalls };
    if (outcome.limit !== undefined) extra.limit = outcome.limit;
    return failure(outcome.errorCode, error, completion, extra);
  }

  /** Ends the executor's own worker pool (a shared pool is left to its owner). Idempotent. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.close();
  }

  #message(errorCode: ExecuteErrorCode): string {
    switch (errorCode) {
      case "INVALID_INPUT":
        return `Script parameters are invalid on ${this.dccName}.`;
      case "TIMEOUT":
        return `Script timed out on ${this.dccName}.`;
      case "CANCELLED":
        return `Script was cancelled on ${this.dccName}.`;
      default:
        return `Script failed on ${this.dccName}.`;
    }
  }
}

const bigintAsString = (_key: string, item: unknown): unknown =>
  typeof item === "bigint" ? String(item) : item;

function valueReply(command: string, value: unknown): string {
  // JSON.stringify drops a top-level function or symbol without an error; the script would
  // silently receive undefined, so these are refused like any other non-JSON value.
  if (typeof value === "function" || typeof value === "symbol") {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: a ${typeof value}`,
    );
  }
  const reply = { ok: true, value: value === undefined ? null : value };
  try {
    // Without a replacer first: it is much faster, and only a BigInt (or a real error) throws.
    return JSON.stringify(reply);
  } catch {
    // Retried below with BigInts as strings.
  }
  try {
    return JSON.stringify(reply, bigintAsString);
  } catch (error) {
    return errorReply(
      command,
      commandErrorCodes.invalidResult,
      `${command} returned a value that is not JSON-representable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function failureReply(command: string, error: unknown): string {
  if (error instanceof CommandError) return errorReply(command, error.code, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return errorReply(command, commandErrorCodes.commandFailed, message);
}

function errorReply(command: string, code: string, message: string): string {
  return JSON.stringify({ ok: false, error: { command, code, message } });
}

function callSafely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A throwing listener must not break the execution.
  }
}

function describeReason(reason: unknown): string | undefined {
  if (typeof reason === "string") return reason;
  if (reason instanceof DccMcpCancelledError) return reason.reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return undefined;
}

function cancelledText(reason: string | undefined, started = false): string {
  const base = started ? "Script was cancelled" : "Script was cancelled before it started";
  return reason === undefined || reason === "" ? base : `${base}: ${reason}`;
}

/** Calls `cancel` when an ambient probe is cancelled; returns a disposer. */
function watchProbe(probe: CancellationProbe, cancel: (reason?: string) => void): () => void {
  if (probe instanceof CancelToken) return probe.onCancel(cancel);
  if (probe.cancelled) {
    cancel(probe.reason);
    return () => {};
  }
  // A read-only probe has no events; poll it while the script runs.
  const timer = setInterval(() => {
    if (probe.cancelled) cancel(probe.reason);
  }, 5);
  timer.unref();
  return () => clearInterval(timer);
}
