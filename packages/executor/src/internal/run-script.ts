// One execution end to end: the input checked, the cancel sources and host calls wired up, the
// job run on the pool, and the sandbox's outcome mapped to an `ExecuteResult`.
import { captureCancelContext, DccMcpCancelledError } from "@dcc/cancel";
import { context } from "@opentelemetry/api";
import type { ApprovalRule } from "../approval.ts";
import type { DispatchLane } from "../dispatch-lane.ts";
import { executeMessage } from "../execute-message.ts";
import type { ExecuteOptions } from "../execute-options.ts";
import type {
  ExecuteChanges,
  ExecuteCompletion,
  ExecuteErrorCode,
  ExecuteFailure,
  ExecuteLimitName,
  ExecuteResult,
  ExecuteStats,
  ExecuteSuccess,
  ExecuteTruncation,
  JsonValue,
} from "../execute-result.ts";
import type { ExecutorLimits } from "../executor-limits.ts";
import type { SandboxPool } from "../sandbox-pool.ts";
import type { ToolDispatcher } from "../tool-dispatcher.ts";
import { ApprovalGate } from "./approval-gate.ts";
import { cancelledText, watchCancelSources } from "./cancel-sources.ts";
import type { DccHold } from "./dcc-hold.ts";
import { createHostCallHandler } from "./host-call-handler.ts";
import { ImageStash } from "./image-stash.ts";
import type { RunHooks } from "./pooled-worker.ts";
import { runOnPool, type SandboxJob } from "./run-on-pool.ts";
import { atDeadline, ScriptClock } from "./script-clock.ts";
import { type ScriptTrace, startScriptTrace } from "./script-tracing.ts";
import { type BeginTransaction, ScriptTransaction } from "./script-transaction.ts";

/** What an execution runs against: the executor's name, limits, pool and dispatcher. */
export interface RunTarget {
  dccName: string;
  limits: Readonly<ExecutorLimits>;
  pool: SandboxPool;
  dispatcher: ToolDispatcher | undefined;
  /** The lane for this run, asked for as it starts (see `DccApiExecutorOptions.dispatchLane`). */
  lane?: (() => DispatchLane | undefined) | undefined;
  /** Begins a script's transaction; undefined for a host without undo. */
  beginTransaction?: BeginTransaction | undefined;
  /** The hold of the DCC behind the dispatcher (see {@link DccHold}); undefined without one. */
  hold: DccHold | undefined;
  /** Bound on each transaction wait, in milliseconds. */
  transactionWaitMs: number;
  /** Host calls per script traced as child spans; later ones are summarised (default 100). */
  maxHostCallSpans?: number | undefined;
  /** The approval rules that are on, and the bound on one question in milliseconds. */
  approval?: { rules: readonly ApprovalRule[]; timeoutMs: number } | undefined;
}

/** {@link ExecuteOptions} plus the `context` a successful result reports (default `{}`). */
export interface RunScriptOptions extends ExecuteOptions {
  context?: Record<string, JsonValue>;
}

interface FailureExtra {
  limit?: ExecuteLimitName;
  logs?: ExecuteFailure["logs"];
  dispatchCalls?: number;
}

/**
 * Runs `code` on `target` and reports the result as JSON. Never throws: invalid input, script
 * errors, limits, timeouts and cancellation all come back as an {@link ExecuteFailure}.
 */
export async function runScript(
  target: RunTarget,
  code: unknown,
  options: RunScriptOptions = {},
): Promise<ExecuteResult> {
  const trace = startScriptTrace(target.dccName, target.maxHostCallSpans ?? 100);
  if (trace.context === undefined) return runTraced(target, code, options, trace);
  try {
    // The transaction's commit or rollback and anything else the run calls sit under the script.
    const result = await context.with(trace.context, () => runTraced(target, code, options, trace));
    trace.end(result);
    return result;
  } catch (error) {
    trace.end({ thrown: error });
    throw error;
  }
}

async function runTraced(
  target: RunTarget,
  code: unknown,
  options: RunScriptOptions,
  trace: ScriptTrace,
): Promise<ExecuteResult> {
  const startedAt = performance.now();
  const { limits, dccName } = target;
  let hostCalls = 0;
  let commands: Record<string, number> | undefined;
  let changes: ExecuteChanges | undefined;
  let approvals: ExecuteStats["approvals"];
  const stats = (dispatchCalls = hostCalls): ExecuteStats => ({
    durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
    dispatchCalls,
    ...(commands === undefined ? {} : { commands }),
    ...(changes === undefined ? {} : { changes }),
    ...(approvals === undefined ? {} : { approvals }),
  });
  const failure = (
    errorCode: ExecuteErrorCode,
    error: string,
    completion: ExecuteCompletion,
    extra: FailureExtra = {},
  ): ExecuteFailure => {
    const result: ExecuteFailure = {
      success: false,
      message: executeMessage(dccName, errorCode),
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
  const invalid = invalidInput(code, options.timeoutSecs ?? limits.timeoutSecs, limits);
  if (invalid !== undefined) {
    return failure(
      "INVALID_INPUT",
      invalid.error,
      "not_started",
      invalid.limit === undefined ? {} : { limit: invalid.limit },
    );
  }
  const script = code as string;
  const timeoutSecs = (options.timeoutSecs ?? limits.timeoutSecs) as number;

  // Cancellation: any source stops the sandbox and aborts the host command's signal.
  const cancel = watchCancelSources(options);
  if (cancel.stop.aborted) {
    cancel.dispose();
    return failure("CANCELLED", cancelledText(cancel.reason), "not_started");
  }

  const images = new ImageStash();
  const clock = new ScriptClock(Date.now() + timeoutSecs * 1000);
  const approval =
    target.approval === undefined || target.approval.rules.length === 0
      ? undefined
      : new ApprovalGate({
          dccName,
          rules: target.approval.rules,
          timeoutMs: target.approval.timeoutMs,
          approve: options.approve,
          preapproved: options.preapproved ?? [],
          clock,
          stop: cancel.host,
        });
  const transaction = new ScriptTransaction({
    dccName,
    begin: target.beginTransaction,
    label: undoLabel(options.undoLabel, dccName),
    waitMs: target.transactionWaitMs,
    hold: target.hold,
    readsOnly: (command) => {
      const definition = target.dispatcher?.registry.get(command);
      return definition === undefined || definition.readOnly === true;
    },
  });
  const host = createHostCallHandler({
    images,
    dccName,
    dispatcher: target.dispatcher,
    stop: cancel.stop,
    host: cancel.host,
    inCallerContext: captureCancelContext(),
    beforeCall: (command) => transaction.beforeHostCall(command, cancel.host),
    trace,
    approval,
  });
  const { onLog, onProgress } = options;
  const hooks: RunHooks = { onCall: (name, argsJson) => host.onCall(name, argsJson) };
  if (onLog !== undefined) hooks.onLog = (entry) => callSafely(() => onLog(entry));
  if (onProgress !== undefined) hooks.onProgress = (update) => callSafely(() => onProgress(update));

  const job: SandboxJob = {
    code: script,
    limits: {
      memoryBytes: limits.memoryBytes,
      stackBytes: limits.stackBytes,
      maxOutputChars: limits.maxOutputChars,
      maxDispatchCalls: limits.maxDispatchCalls,
      maxLogEntries: limits.maxLogEntries,
      maxLogChars: limits.maxLogChars,
      maxArgsChars: limits.maxArgsChars,
      maxArgsDepth: limits.maxArgsDepth,
    },
    deadline: clock.base,
    deadlineShift: clock.shift,
    streamLogs: onLog !== undefined,
    streamProgress: onProgress !== undefined,
  };
  const lane = laneOf(target, approval);
  if (lane !== undefined) {
    job.lane = lane;
    if (target.hold !== undefined) job.laneGate = target.hold.gate;
  }
  // A stopped script that holds the DCC seals it at once: the rollback comes before anybody
  // else's command, not only once the sandbox has wound down.
  const stopped = (): void => transaction.stopped();
  cancel.stop.addEventListener("abort", stopped, { once: true });
  const cancelDeadline = atDeadline(clock.base, clock.shift, 0, stopped);
  let outcome: Awaited<ReturnType<typeof runOnPool>>;
  try {
    outcome = await runOnPool(target.pool, job, hooks, cancel.stop);
  } finally {
    cancel.stop.removeEventListener("abort", stopped);
    cancelDeadline();
    cancel.dispose();
  }
  hostCalls = host.calls;
  commands = host.commands();
  changes = host.changes();
  approvals = approval?.records();

  // A command still waiting for the DCC never started; one running may have done anything.
  const hostStillRunning =
    host.inFlight - host.waiting > 0 ||
    (outcome.status === "error" && outcome.hostCallOpen === true);
  if (host.inFlight > 0 || hostStillRunning) {
    cancel.abortHost(
      new DccMcpCancelledError({
        message:
          outcome.status === "error" && outcome.errorCode === "TIMEOUT"
            ? "Script timed out"
            : "Script stopped",
      }),
    );
  }
  const dispatchCalls = Math.max(hostCalls, outcome.dispatchCalls);
  // Committed or rolled back once the script's host commands have settled (bounded).
  const report = await transaction.end({
    success: outcome.status === "ok",
    keep: options.keepPartialChanges === true,
    idle: host.idle(),
  });
  // The adapter's net report, when it keeps one, replaces the sum of the commands' reports.
  const net = transaction.netChanges();
  if (net !== undefined) changes = net.changes;
  if (outcome.status === "ok") {
    const output = JSON.parse(outcome.outputJson) as JsonValue;
    const success: ExecuteSuccess = {
      success: true,
      message: executeMessage(dccName),
      output,
      logs: outcome.logs,
      context: options.context ?? {},
      completion: "complete",
      stats: stats(dispatchCalls),
    };
    if (outcome.truncationJson !== undefined) {
      success.truncated = truncationReport(outcome.truncationJson);
    }
    const attached = images.collect(output, limits);
    if (attached.images.length > 0) success.images = attached.images;
    if (attached.dropped.length > 0) success.droppedImages = attached.dropped;
    if (report !== undefined) success.transaction = report;
    return success;
  }
  const completion: ExecuteCompletion = !outcome.started
    ? "not_started"
    : hostStillRunning
      ? "unknown"
      : "complete";
  let error = outcome.error;
  if (outcome.errorCode === "TIMEOUT") error = `Script exceeded the ${timeoutSecs}s timeout`;
  if (outcome.errorCode === "CANCELLED") error = cancelledText(cancel.reason, outcome.started);
  const extra: FailureExtra = { logs: outcome.logs, dispatchCalls };
  if (outcome.limit !== undefined) extra.limit = outcome.limit;
  const result = failure(outcome.errorCode, error, completion, extra);
  if (report !== undefined) result.rollback = report;
  return result;
}

/** The sandbox's report of a cut output, with its sentence for the agent. */
function truncationReport(json: string): ExecuteTruncation {
  const cut = JSON.parse(json) as Omit<ExecuteTruncation, "note">;
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? "" : "s"}`;
  const parts = [
    cut.itemsLeftOut > 0 ? count(cut.itemsLeftOut, "array item") : "",
    cut.keysLeftOut > 0 ? count(cut.keysLeftOut, "object key") : "",
    cut.charsLeftOut > 0
      ? `${count(cut.charsLeftOut, "character")} of ${count(cut.stringsShortened, "string")}`
      : "",
    cut.valuesSummarised > 0 ? count(cut.valuesSummarised, "nested value") : "",
  ].filter((part) => part !== "");
  const size =
    cut.originalChars === undefined ? `more than ${cut.limitChars}` : `${cut.originalChars}`;
  return {
    ...cut,
    note: `The output was ${size} characters of JSON, over the output limit of ${cut.limitChars}, so it was cut to ${cut.keptChars}${parts.length > 0 ? `, leaving out ${parts.join(", ")}` : ""}; markers in the output say where. The script succeeded and its changes were kept. Return less, or page through the data.`,
  };
}

/** The undo step's name: the caller's, on one line and at most 80 characters. */
function undoLabel(label: unknown, dccName: string): string {
  const text = typeof label === "string" ? label.replace(/\s+/g, " ").trim() : "";
  if (text === "") return `${dccName} script`;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The target's lane for a run, or undefined (none, or the adapter's callback failed). Commands an
 * approval rule looks at are left off it: their question is asked on the main thread.
 */
function laneOf(target: RunTarget, approval: ApprovalGate | undefined): DispatchLane | undefined {
  let lane: DispatchLane | undefined;
  try {
    lane = target.lane?.();
  } catch {
    return undefined;
  }
  if (lane === undefined || approval === undefined) return lane;
  const commands = lane.commands.filter((command) => !approval.guards(command));
  return commands.length === lane.commands.length ? lane : { ...lane, commands };
}

/** Why `code` and `timeoutSecs` cannot run, or undefined when they can. */
function invalidInput(
  code: unknown,
  timeoutSecs: unknown,
  limits: Readonly<ExecutorLimits>,
): { error: string; limit?: ExecuteLimitName } | undefined {
  if (code === undefined || code === null) return { error: "Missing required 'code' string" };
  if (typeof code !== "string") return { error: "code must be a string" };
  if (code.length > limits.maxCodeChars) {
    return {
      error: `code is ${code.length} characters, over the code size limit of ${limits.maxCodeChars} characters`,
      limit: "code",
    };
  }
  if (typeof timeoutSecs !== "number" || !Number.isInteger(timeoutSecs)) {
    return { error: "timeoutSecs must be an integer number of seconds" };
  }
  if (timeoutSecs <= 0) return { error: "timeoutSecs must be greater than zero" };
  if (timeoutSecs > limits.maxTimeoutSecs) {
    return { error: `timeoutSecs must be at most ${limits.maxTimeoutSecs}` };
  }
  return undefined;
}

function callSafely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A throwing listener must not break the execution.
  }
}
