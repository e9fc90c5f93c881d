// One dcc_execute call that runs a script: validates the argument combination, reads the trusted
// parts of _meta.dcc (async, parentJobId; never jobId), and runs the script synchronously or as an
// async job under a server-owned job id and CancelToken.
import { randomUUID } from "node:crypto";
import { type Approver, executeMessage, preapprovedProblem } from "@dcc/executor";
import {
  type InputRequiredResult,
  inputRequired,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { BridgeExecuteOptions, BridgeExecutor, BridgeResult } from "../bridge-executor.ts";
import type { JobManager, JobWorkContext } from "../job-manager.ts";
import type { JobQueue, JobQueueSubmission } from "../job-queue.ts";
import type { JobRecord } from "../job-store.ts";
import { approvalForm, elicitingApprover, unanswerable } from "./approval-form.ts";
import { runInCallContext } from "./call-context.ts";
import { CallNotifier, type SendNotification } from "./call-notifier.ts";
import { jobView } from "./job-view.ts";
import type { LogLevelReader } from "./log-level.ts";
import { submissionFailed } from "./queue-unavailable.ts";
import { runQueuedCall } from "./queued-call.ts";
import type {
  ResumeRefusal,
  RoundOutcome,
  RoundTripCall,
  RoundTripCalls,
} from "./round-trip-calls.ts";
import { startJobSpan } from "./tool-call-trace.ts";
import { fitResult } from "./tool-result.ts";
import type { ExecuteArguments } from "./tool-schemas.ts";

/** Settings of the execute tool that do not change per call. */
export interface ExecuteCallSettings {
  jobs: JobManager;
  /** Where 2026-07-28 calls paused for an answer wait for their retry (`jobs.roundTrips`). */
  roundTrips: RoundTripCalls;
  executeToolName: string;
  logLevel: LogLevelReader;
  progressIntervalMs: number;
  maxLogNotifications: number;
  maxResultChars: number;
  /**
   * Who a call comes from, for the submissions of queued jobs (`JobQueueSubmission.tokenLabel`,
   * `clientName`).
   */
  identityOf?: (extra: ServerContext) => { tokenLabel?: string; clientName?: string };
  /** Told when an async job this server ran has finished (with its id and run time, in ms). */
  onJobFinished?: (jobId: string, result: BridgeResult, durationMs: number) => void;
  /**
   * How this call's client is asked to approve a command (see `ApprovalRule`): `elicit` sends
   * `elicitation/create` during the call (2025-11-25), `round-trip` answers `input_required` and
   * waits for the retried call (2026-07-28), `none` means the client cannot ask anybody.
   */
  askingOf?: (extra: ServerContext) => "elicit" | "round-trip" | "none";
  /** Who answers this call's questions, for the audit: its token's label, else the client's name. */
  answererOf?: (extra: ServerContext) => string | undefined;
  /**
   * Told of a script's result that no request will carry (its 2026-07-28 client left during a
   * question): the call's own observation does not happen then.
   */
  onUndelivered?: (result: BridgeResult, jobId: string | undefined) => void;
}

/** A script call's outcome: its envelope, or the questions its client must answer first. */
export type ExecuteCallOutcome = BridgeResult | { readonly inputRequired: InputRequiredResult };

/** What a call learnt that its envelope does not say: the server-owned id of a sync script. */
export interface ExecuteCallFacts {
  jobId?: string;
  /** The result was reported already, when it came with no request to carry it. */
  reported?: boolean;
  /**
   * When the call started (`performance.now()`): set by the caller for a new call, and by a
   * retried 2026-07-28 call to its first request's, so the audit has the whole duration.
   */
  startedAt?: number;
}

type Extra = ServerContext;

/** Runs a script call and returns its envelope (the job handle for async calls). */
export async function runExecuteCall(
  executor: BridgeExecutor,
  args: ExecuteArguments,
  extra: Extra,
  settings: ExecuteCallSettings,
  facts: ExecuteCallFacts = {},
): Promise<ExecuteCallOutcome> {
  const dccName = executor.dccName;
  const resumed = await resumeRoundTrip(args, extra, settings, facts);
  if (resumed !== undefined) return resumed;
  const problem = argumentProblem(executor, args);
  if (problem !== undefined) {
    return {
      success: false,
      message: executeMessage(dccName, "INVALID_INPUT"),
      error: problem,
      errorCode: "INVALID_INPUT",
    };
  }
  const meta = dccMeta(extra.mcpReq._meta);
  if (meta.problem !== undefined) {
    return {
      success: false,
      message: executeMessage(dccName, "INVALID_INPUT"),
      error: meta.problem,
      errorCode: "INVALID_INPUT",
    };
  }
  const parentJobId = meta.parentJobId;
  const preapproved = meta.preapproved;
  const runOptions = { dccName, ...(parentJobId === undefined ? {} : { parentJobId }) };

  if ((args.async === true || meta.async) && settings.jobs.queue !== undefined) {
    return submitToQueue(settings.jobs.queue, args, {
      ...runOptions,
      preapproved,
      executeToolName: settings.executeToolName,
      sessionId: extra.sessionId,
      ...settings.identityOf?.(extra),
    });
  }

  if (args.async === true || meta.async) {
    // The store keeps the shaped result, so retained jobs stay bounded in size too.
    const record = settings.jobs.startJob(runOptions, (context) =>
      // The job's own span ends with the job, after the call that started it has answered.
      startJobSpan(dccName, context.jobId).run(async () => {
        const startedAt = performance.now();
        const result = fitResult(
          await runScript(
            executor,
            args,
            context,
            // Nobody waits on an async job to answer a question: only pre-approvals count.
            { onProgress: context.reportProgress, preapproved },
            extra.sessionId,
            settings.executeToolName,
          ),
          settings.maxResultChars,
        );
        settings.onJobFinished?.(context.jobId, result, performance.now() - startedAt);
        return result;
      }),
    );
    if (record === undefined) return busy(dccName, "jobs");
    return jobStarted(record, dccName, settings.executeToolName);
  }

  const asking = settings.askingOf?.(extra) ?? "none";
  const queued = settings.jobs.syncCallsOnQueue && settings.jobs.queue !== undefined;
  if (asking === "round-trip" && !queued) {
    return startRoundTrip(executor, args, extra, settings, facts, { runOptions, preapproved });
  }
  const approve: Approver =
    asking === "elicit" ? elicitingApprover(extra, settings.answererOf?.(extra)) : unanswerable;
  const notifier = new CallNotifier({
    send: extra.mcpReq.notify as SendNotification,
    progressToken: extra.mcpReq._meta?.progressToken,
    logLevel: () => settings.logLevel(extra),
    logger: dccName,
    intervalMs: settings.progressIntervalMs,
    maxLogNotifications: settings.maxLogNotifications,
  });
  try {
    const queue = settings.jobs.syncCallsOnQueue ? settings.jobs.queue : undefined;
    const result = await settings.jobs.runCall(
      { ...runOptions, signal: extra.mcpReq.signal },
      (context) => {
        facts.jobId = context.jobId;
        return queue !== undefined
          ? runQueuedCall(queue, context, {
              submission: jobSubmission(args, {
                ...runOptions,
                executeToolName: settings.executeToolName,
                sessionId: extra.sessionId,
                ...settings.identityOf?.(extra),
                // A farm worker has nobody to ask: only pre-approvals count there.
                preapproved,
                // The server's default applies, as its schema says, and bounds the wait.
                timeoutSecs: args.timeout_secs ?? executor.limits?.timeoutSecs,
              }),
              timeoutSecs: args.timeout_secs ?? executor.limits?.timeoutSecs ?? 60,
              onProgress: notifier.onProgress,
            })
          : runScript(
              executor,
              args,
              context,
              { onProgress: notifier.onProgress, onLog: notifier.onLog, approve, preapproved },
              extra.sessionId,
              settings.executeToolName,
            );
      },
    );
    return result ?? busy(dccName, "scripts");
  } finally {
    await notifier.flush();
  }
}

/** What a round-trip call carries from its first request. */
interface RoundTripStart {
  runOptions: { dccName: string; parentJobId?: string };
  preapproved: readonly string[] | undefined;
}

/**
 * Starts a script call on 2026-07-28 that can stop for questions: the script runs under its own
 * signal (the serving request's cancels it), and this request is answered with the result or the
 * first questions.
 */
async function startRoundTrip(
  executor: BridgeExecutor,
  args: ExecuteArguments,
  extra: Extra,
  settings: ExecuteCallSettings,
  facts: ExecuteCallFacts,
  start: RoundTripStart,
): Promise<ExecuteCallOutcome> {
  const calls = settings.roundTrips;
  const call = calls.create({
    tool: settings.executeToolName,
    args,
    startedAt: facts.startedAt ?? performance.now(),
  });
  // Progress and log lines go on whichever request serves the call at the time, with its token.
  const notifier = new CallNotifier({
    send: (notification) => call.attached?.mcpReq.notify(notification) ?? Promise.resolve(),
    progressToken: () => call.attached?.mcpReq._meta?.progressToken,
    logLevel: () => settings.logLevel(call.attached ?? extra),
    logger: executor.dccName,
    intervalMs: settings.progressIntervalMs,
    maxLogNotifications: settings.maxLogNotifications,
  });
  call.start(
    async () => {
      try {
        const result = await settings.jobs.runCall(
          { ...start.runOptions, signal: call.signal },
          (context) => {
            facts.jobId = context.jobId;
            call.jobId = context.jobId;
            return runScript(
              executor,
              args,
              context,
              {
                onProgress: notifier.onProgress,
                onLog: notifier.onLog,
                approve: call.approver,
                preapproved: start.preapproved,
              },
              extra.sessionId,
              settings.executeToolName,
            );
          },
        );
        return result ?? busy(executor.dccName, "scripts");
      } finally {
        await notifier.flush();
      }
    },
    (result) => settings.onUndelivered?.(result, call.jobId),
  );
  return roundOutcome(
    call,
    await call.serve(extra, [], settings.answererOf?.(extra)),
    extra,
    settings,
  );
}

/** What a refused retry is told, by why. */
const refusals: Record<ResumeRefusal, string> = {
  unknown: "This answer's requestState was not issued by this server",
  "other-caller":
    "This answer comes from another caller than the one asked (a different token): only the caller asked can answer",
  "other-call":
    "This answer's requestState belongs to a different call: a retry must repeat the tool and arguments of the call that asked",
  expired: "This answer's requestState has expired",
  gone: "This answer is for an approval question that is no longer open: its time ran out and the script was stopped, or the server restarted. The script may have run in part and been rolled back; check the scene before running it again",
};

/**
 * A retried call that answers questions (its `requestState` names the paused call): undefined
 * for a request that carries no state.
 */
async function resumeRoundTrip(
  args: ExecuteArguments,
  extra: Extra,
  settings: ExecuteCallSettings,
  facts: ExecuteCallFacts,
): Promise<ExecuteCallOutcome | undefined> {
  let state: unknown;
  try {
    state = extra.mcpReq.requestState();
  } catch {
    return undefined;
  }
  if (typeof state !== "string" || state === "") return undefined;
  const resumed = await settings.roundTrips.resume(state, extra, {
    tool: settings.executeToolName,
    args,
  });
  if ("refused" in resumed) {
    return {
      success: false,
      message: `${refusals[resumed.refused]}.`,
      error: `requestState refused: ${resumed.refused}`,
      errorCode: "INVALID_INPUT",
      completion: "not_started",
    };
  }
  const { call, questions } = resumed;
  facts.reported = call.reportedAlone;
  if (call.jobId !== undefined) facts.jobId = call.jobId;
  facts.startedAt = call.origin.startedAt;
  return roundOutcome(
    call,
    await call.serve(extra, questions, settings.answererOf?.(extra)),
    extra,
    settings,
  );
}

/** The call's result, or an `input_required` result that asks its questions. */
async function roundOutcome(
  call: RoundTripCall,
  outcome: RoundOutcome,
  extra: Extra,
  settings: ExecuteCallSettings,
): Promise<ExecuteCallOutcome> {
  if (outcome.kind === "result") return outcome.result;
  if (outcome.kind === "busy") {
    return {
      success: false,
      message:
        "Another request is answering this call's approval question right now; wait for its answer instead of retrying.",
      error: "call already being served",
      errorCode: "BUSY",
      completion: "not_started",
    };
  }
  const keys = outcome.questions.map((question) => question.key);
  return {
    inputRequired: inputRequired({
      inputRequests: Object.fromEntries(
        outcome.questions.map(({ key, question }) => [
          key,
          inputRequired.elicit(approvalForm(question)),
        ]),
      ),
      requestState: await settings.roundTrips.mint(call, keys, extra),
    }),
  };
}

/** Queues the script under a fresh server-owned id; an unreachable queue is an envelope. */
async function submitToQueue(
  queue: JobQueue,
  args: ExecuteArguments,
  options: QueueCallOptions,
): Promise<BridgeResult> {
  const { dccName } = options;
  let record: JobRecord;
  try {
    record = await queue.submit({
      jobId: randomUUID(),
      ...jobSubmission(args, { ...options, timeoutSecs: args.timeout_secs }),
    });
  } catch (error) {
    return submissionFailed(dccName, error);
  }
  return jobStarted(record, dccName, options.executeToolName);
}

/** Who submits a call to a queue. */
interface QueueCallOptions {
  dccName: string;
  parentJobId?: string;
  executeToolName: string;
  sessionId: string | undefined;
  tokenLabel?: string | undefined;
  clientName?: string | undefined;
  /** Rules the client approved in advance for this job (`_meta.dcc.preapproved`). */
  preapproved?: readonly string[] | undefined;
}

/** The job a script call becomes on a queue, without its id. */
function jobSubmission(
  args: ExecuteArguments,
  options: QueueCallOptions & { timeoutSecs: number | undefined },
): Omit<JobQueueSubmission, "jobId"> {
  return {
    dccName: options.dccName,
    ...(options.parentJobId === undefined ? {} : { parentJobId: options.parentJobId }),
    ...(args.code === undefined ? {} : { code: args.code }),
    ...(args.file_path === undefined ? {} : { filePath: args.file_path }),
    ...(args.params === undefined ? {} : { params: args.params }),
    ...(args.sha256 === undefined ? {} : { sha256: args.sha256 }),
    ...(options.timeoutSecs === undefined ? {} : { timeoutSecs: options.timeoutSecs }),
    ...(args.keep_partial === true ? { keepPartialChanges: true } : {}),
    undoLabel: undoLabel(options.executeToolName, args),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    tool: options.executeToolName,
    ...(options.tokenLabel === undefined ? {} : { tokenLabel: options.tokenLabel }),
    ...(options.clientName === undefined ? {} : { clientName: options.clientName }),
    ...(options.preapproved === undefined ? {} : { preapproved: [...options.preapproved] }),
  };
}

/** The handle an async call returns. */
function jobStarted(record: JobRecord, dccName: string, executeToolName: string): BridgeResult {
  const poll = { job_id: record.jobId, job_action: "status" };
  return {
    success: true,
    message: `Job ${record.jobId} started on ${dccName}. Poll it with ${executeToolName}(${JSON.stringify(poll)}); use job_action "result" for the outcome, "cancel" to stop it.`,
    job_id: record.jobId,
    status: record.status,
    parent_job_id: record.parentJobId ?? null,
    job: jobView(record),
    poll: { tool: executeToolName, arguments: poll },
  };
}

/**
 * The undo step a script becomes, named after the call: the tool and the script's first line
 * (or its file), which is what a person sees in the DCC's undo history.
 */
export function undoLabel(executeToolName: string, args: ExecuteArguments): string {
  const what =
    args.file_path ??
    (args.code ?? "")
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line !== "" && line !== "```" && !line.startsWith("```")) ??
    "";
  const label = what === "" ? executeToolName : `${executeToolName}: ${what}`;
  return label.length > 80 ? `${label.slice(0, 79)}…` : label;
}

function busy(dccName: string, what: string): BridgeResult {
  return {
    success: false,
    message: `Too many ${what} are running on ${dccName}; try again later.`,
    error: "busy",
    errorCode: "BUSY",
    completion: "not_started",
  };
}

function runScript(
  executor: BridgeExecutor,
  args: ExecuteArguments,
  context: JobWorkContext,
  streams: Pick<BridgeExecuteOptions, "onProgress" | "onLog" | "approve" | "preapproved">,
  sessionId: string | undefined,
  executeToolName: string,
): Promise<BridgeResult> {
  const { token, jobId } = context;
  const options: BridgeExecuteOptions = {
    ...(args.timeout_secs === undefined ? {} : { timeoutSecs: args.timeout_secs }),
    ...(args.keep_partial === true ? { keepPartialChanges: true } : {}),
    undoLabel: undoLabel(executeToolName, args),
    signal: token.signal,
    cancelToken: token,
    materialize: { toolCallId: jobId, ...(sessionId === undefined ? {} : { sessionId }) },
    ...streams,
  };
  return runInCallContext(token, jobId, async () => {
    const result = await runExecutor(executor, args, options);
    // A host command that noticed the cancel first makes the script fail with its error; the
    // call was still cancelled, so say so.
    if (!result.success && token.cancelled && result["errorCode"] !== "CANCELLED") {
      return {
        ...result,
        message: executeMessage(executor.dccName, "CANCELLED"),
        errorCode: "CANCELLED",
      };
    }
    return result;
  });
}

async function runExecutor(
  executor: BridgeExecutor,
  args: ExecuteArguments,
  options: BridgeExecuteOptions,
): Promise<BridgeResult> {
  try {
    if (args.file_path !== undefined && executor.executeParams !== undefined) {
      return {
        ...(await executor.executeParams(
          {
            filePath: args.file_path,
            params: args.params ?? {},
            ...(args.timeout_secs === undefined ? {} : { timeoutSecs: args.timeout_secs }),
            ...(args.sha256 === undefined ? {} : { sha256: args.sha256 }),
          },
          options,
        )),
      };
    }
    return { ...(await executor.execute(args.code ?? "", options)) };
  } catch (error) {
    return {
      success: false,
      message: executeMessage(executor.dccName, "INTERNAL"),
      error: error instanceof Error ? error.message : String(error),
      errorCode: "INTERNAL",
      completion: "unknown",
    };
  }
}

function argumentProblem(executor: BridgeExecutor, args: ExecuteArguments): string | undefined {
  const hasCode = args.code !== undefined;
  const hasFile = args.file_path !== undefined;
  if (hasCode && hasFile) return "Pass either code or file_path, not both";
  if (!hasCode && !hasFile) return "Missing required 'code' string (or file_path with params)";
  if (hasCode && args.code?.trim() === "") return "code must not be empty";
  if (hasCode && (args.params !== undefined || args.sha256 !== undefined)) {
    return "params and sha256 go with file_path, not with code";
  }
  if (hasFile && executor.executeParams === undefined) {
    return `file_path is not supported by the ${executor.dccName} executor; pass code`;
  }
  return undefined;
}

/**
 * The parts of `_meta.dcc` the bridge honours. A client-supplied `jobId` is ignored on purpose.
 * `preapproved` lists approval rules the client (not the model: `_meta` is the client's) approves
 * in advance for this call, which is how an async or farm job gets past an `ask` rule.
 */
function dccMeta(meta: Record<string, unknown> | undefined): {
  async: boolean;
  parentJobId?: string;
  preapproved?: readonly string[];
  problem?: string;
} {
  const dcc = meta?.["dcc"];
  if (dcc === null || typeof dcc !== "object") return { async: false };
  const fields = dcc as Record<string, unknown>;
  const parent = fields["parentJobId"];
  const preapproved = fields["preapproved"];
  const base = {
    async: fields["async"] === true,
    ...(typeof parent === "string" && parent !== "" ? { parentJobId: parent } : {}),
  };
  if (preapproved === undefined) return base;
  const problem = preapprovedProblem(preapproved);
  if (problem !== undefined) return { ...base, problem: `_meta.dcc.${problem}` };
  return { ...base, preapproved: [...new Set(preapproved as string[])] };
}
