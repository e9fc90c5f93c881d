// Runs one script in a fresh QuickJS runtime and context, synchronously, and disposes every
// handle on every path. `dispatch` is synchronous by design: the host answers it before the guest
// continues, so no host promise is ever bridged into the guest.
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { GUEST_BOOTSTRAP } from "./guest-bootstrap.ts";
import {
  formatBytes,
  formatError,
  type GuestLimit,
  isHostStackOverflow,
  isSyntaxError,
  limitOf,
  readError,
} from "./guest-errors.ts";
import { GUEST_SLICE_SOURCE } from "./guest-text.ts";
import { ERROR_READ_HEADROOM_BYTES, newHostFunctions } from "./host-functions.ts";
import { instrumentAsync } from "./instrument-async.ts";
import { LogBuffer } from "./log-buffer.ts";
import { guestStackCap } from "./native-stack.ts";
import { stripTypes, wrapScript } from "./prepare-script.ts";
import { type RunState, type SandboxHost, type Stop, stopFrom } from "./sandbox-run-state.ts";
import type { LimitName, RunErrorCode, RunOutcome, RunRequest } from "./sandbox-types.ts";

export type { SandboxHost, StopReason } from "./sandbox-run-state.ts";

/** The part of a QuickJS module the runner uses (a test module wrapper fits too). */
export type SandboxModule = Pick<QuickJSWASMModule, "newRuntime">;

// This thread's native stack does not change, so neither does the QuickJS limit it can honour.
const threadGuestStackCap = guestStackCap();
/** Room for the report of what was cut, which comes before a cut output's text. */
const maxTruncationReportChars = 1024;

/**
 * A fresh runtime and context with the bootstrap already evaluated, waiting for one script.
 * The worker prepares the next one while it idles, which takes runtime creation off the
 * critical path. Single use: {@link runPrepared} disposes it.
 */
export interface PreparedSandbox {
  readonly maxLogChars: number;
  /** Frees it without running anything (e.g. when limits changed). */
  dispose(): void;
}

interface PreparedState extends PreparedSandbox {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  handles: QuickJSHandle[];
  serialize: QuickJSHandle;
  /** The guest string cutter (see `readGuestText`). */
  slice: QuickJSHandle;
  current: RunState | null;
}

function disposeAll(
  runtime: QuickJSRuntime | undefined,
  context: QuickJSContext | undefined,
  handles: QuickJSHandle[],
): void {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i] as QuickJSHandle;
    if (handle.alive) handle.dispose();
  }
  handles.length = 0;
  if (context?.alive) context.dispose();
  if (runtime?.alive) runtime.dispose();
}

/**
 * Creates a runtime and context and runs the bootstrap. Throws if QuickJS fails (the module is
 * then suspect).
 */
export function prepareSandbox(module: SandboxModule, maxLogChars: number): PreparedSandbox {
  const handles: QuickJSHandle[] = [];
  const own = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };
  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  try {
    runtime = module.newRuntime();
    const rt = runtime;
    const ctx = rt.newContext();
    context = ctx;
    const state = { current: null } as { current: RunState | null };

    // Inactive until a run starts: interrupting the bootstrap would look like a broken sandbox.
    rt.setInterruptHandler(() => {
      const run = state.current;
      if (run === null) return false;
      if (run.stop !== null) return true;
      const reason = run.host.checkStop();
      if (reason === null) return false;
      run.stop = stopFrom(reason);
      return true;
    });

    const sliced = ctx.evalCode(GUEST_SLICE_SOURCE, "slice.js");
    if (sliced.error) {
      own(sliced.error);
      throw new Error("The sandbox's string cutter failed to evaluate");
    }
    const slice = own(sliced.value);
    const host = newHostFunctions(ctx, { current: () => state.current, own, slice });
    const maxLogCharsHandle = own(ctx.newNumber(maxLogChars));
    const bootstrap = ctx.evalCode(GUEST_BOOTSTRAP, "bootstrap.js");
    if (bootstrap.error) {
      own(bootstrap.error);
      throw new Error("The sandbox bootstrap failed to evaluate");
    }
    const bootstrapFn = own(bootstrap.value);
    const made = ctx.callFunction(
      bootstrapFn,
      ctx.undefined,
      host.dispatch,
      host.log,
      host.progress,
      host.jobError,
      maxLogCharsHandle,
    );
    if (made.error) {
      own(made.error);
      throw new Error("The sandbox bootstrap failed to run");
    }
    const serialize = own(made.value);
    const prepared: PreparedState = Object.assign(state, {
      maxLogChars,
      runtime: rt,
      context: ctx,
      handles,
      serialize,
      slice,
      dispose: () => disposeAll(rt, ctx, handles),
    });
    return prepared;
  } catch (error) {
    try {
      disposeAll(runtime, context, handles);
    } catch {
      // Already failing; the caller treats the module as suspect.
    }
    throw error;
  }
}

/** Runs `request` in a fresh sandbox and reports how it ended; never throws. */
export function runInSandbox(
  module: SandboxModule,
  request: RunRequest,
  host: SandboxHost,
): RunOutcome {
  let prepared: PreparedSandbox;
  try {
    prepared = prepareSandbox(module, request.limits.maxLogChars);
  } catch (error) {
    return {
      status: "error",
      errorCode: "INTERNAL",
      error: `The sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`,
      logs: [],
      dispatchCalls: 0,
      poisoned: true,
    };
  }
  return runPrepared(prepared, request, host);
}

/**
 * Runs `request` in a sandbox from {@link prepareSandbox} (whose `maxLogChars` must match the
 * request's), then disposes it, unless `deferDispose` leaves that to the caller (the worker
 * reports the result first). Never throws.
 */
export function runPrepared(
  sandbox: PreparedSandbox,
  request: RunRequest,
  host: SandboxHost,
  options: { deferDispose?: boolean } = {},
): RunOutcome {
  const prepared = sandbox as PreparedState;
  const { limits } = request;
  // A limit the thread's native stack could not back is lowered, so QuickJS always trips first.
  const stackBytes = Math.min(limits.stackBytes, threadGuestStackCap);
  const filename = request.filename ?? "script.ts";
  const run: RunState = {
    request,
    host,
    logs: new LogBuffer(limits),
    dispatchCalls: 0,
    stop: null,
    jobLimit: null,
  };
  let poisoned = false;
  const handles = prepared.handles;
  const own = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };

  const finishLogs = () => run.logs.finish();
  const fail = (errorCode: RunErrorCode, error: string, limit?: LimitName): RunOutcome => {
    const outcome: RunOutcome = {
      status: "error",
      errorCode,
      error,
      logs: finishLogs(),
      dispatchCalls: run.dispatchCalls,
      poisoned,
    };
    if (limit !== undefined) outcome.limit = limit;
    return outcome;
  };
  const stackOverflow = (): RunOutcome =>
    fail(
      "LIMIT_EXCEEDED",
      `InternalError: stack overflow (stack limit of ${formatBytes(stackBytes)} reached; recursion too deep)`,
      "stack",
    );
  const outOfMemory = (): RunOutcome =>
    fail(
      "LIMIT_EXCEEDED",
      `InternalError: out of memory (memory limit of ${formatBytes(limits.memoryBytes)} reached)`,
      "memory",
    );
  const limitReached = (limit: GuestLimit): RunOutcome =>
    limit === "memory" ? outOfMemory() : stackOverflow();
  const failStopped = (): RunOutcome => {
    const current = run.stop as Stop;
    return fail(current.errorCode, current.error, current.limit);
  };

  let outcome: RunOutcome;
  try {
    const { runtime: rt, context: ctx, serialize, slice } = prepared;
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(stackBytes);
    prepared.current = run;
    outcome = evaluate();

    function evaluate(): RunOutcome {
      let wrapped: string;
      try {
        wrapped = wrapScript(request.code, request.entry);
      } catch (error) {
        return fail("SCRIPT_ERROR", String(error));
      }
      let result = ctx.evalCode(instrumentAsync(wrapped), filename);
      if (result.error && run.stop === null && isSyntaxError(ctx, result.error, slice)) {
        // Not plain JavaScript: try it as TypeScript. Plain JS skips sucrase, which saves ~0.1 ms.
        let stripped: string | undefined;
        try {
          stripped = stripTypes(wrapped);
        } catch {
          // Not TypeScript either: QuickJS's own syntax error is the better message.
        }
        if (stripped !== undefined) {
          result.error.dispose();
          result = ctx.evalCode(instrumentAsync(stripped), filename);
        }
      }
      if (result.error) {
        const error = own(result.error);
        if (run.stop !== null) return failStopped();
        return scriptError(error);
      }
      const promise = own(result.value);
      for (;;) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          const error = own(jobs.error);
          if (run.stop !== null) return failStopped();
          return scriptError(error);
        }
        if (run.stop !== null) return failStopped();
        const state = ctx.getPromiseState(promise);
        if (state.type === "pending") {
          if (rt.hasPendingJob()) continue;
          // Waiting on nothing because a job ran into a limit: that limit is what ended it.
          if (run.jobLimit !== null) return limitReached(run.jobLimit);
          return fail(
            "SCRIPT_ERROR",
            "Error: the script awaits a promise that can never settle (nothing is pending)",
          );
        }
        if (state.type === "rejected") {
          const error = own(state.error);
          if (run.stop !== null) return failStopped();
          return scriptError(error);
        }
        const value = own(state.value);
        const maxChars = own(ctx.newNumber(limits.maxOutputChars));
        const json = ctx.callFunction(serialize, ctx.undefined, value, maxChars);
        if (json.error) {
          const error = own(json.error);
          if (run.stop !== null) return failStopped();
          return scriptError(error);
        }
        const text = own(json.value);
        // A cancel or deadline that raced the script's last steps still wins.
        if (run.stop === null) {
          const reason = host.checkStop();
          if (reason !== null) run.stop = stopFrom(reason);
        }
        if (run.stop !== null) return failStopped();
        if (ctx.typeof(text) !== "string") {
          return fail("SCRIPT_ERROR", "Output is not serializable");
        }
        // The serializer cuts an output over the limit down to it (see guest-bootstrap.ts). The
        // length is read before the text is copied out: a serializer that failed at that would
        // otherwise have the host copy whatever it made.
        const length = ctx.getNumber(own(ctx.getProp(text, "length")));
        if (length > limits.maxOutputChars + maxTruncationReportChars) {
          return fail(
            "LIMIT_EXCEEDED",
            `Output is ${length} characters of JSON, over the output limit of ${limits.maxOutputChars} characters; return less data (for example a summary or a count)`,
            "output",
          );
        }
        const serialized = ctx.getString(text);
        const ok: RunOutcome = {
          status: "ok",
          outputJson: serialized,
          logs: finishLogs(),
          dispatchCalls: run.dispatchCalls,
          poisoned,
        };
        // A cut output comes as "\u0001" + report + "\u0001" + text.
        if (serialized.charCodeAt(0) === 1) {
          const end = serialized.indexOf("\u0001", 1);
          ok.truncationJson = serialized.slice(1, end);
          ok.outputJson = serialized.slice(end + 1);
        }
        return ok;
      }
    }

    function scriptError(error: QuickJSHandle): RunOutcome {
      // After an out-of-memory error even reading `name` needs memory; the script is over, so
      // lend it some headroom (the worker's WASM memory has room for it).
      rt.setMemoryLimit(limits.memoryBytes + ERROR_READ_HEADROOM_BYTES);
      const read = readError(ctx, error, slice);
      // Reading the error runs guest code (getters, proxy traps); when that is what a cancel or
      // the deadline interrupted, the stop is what ended the run, not what the read returned.
      if (run.stop !== null) return failStopped();
      // Out of memory in the middle of building the error object leaves one whose properties
      // cannot be read at all (not even as undefined); the runtime is not to be trusted after it.
      if (read.unreadable) poisoned = true;
      const limit = limitOf(read);
      if (limit !== undefined) return limitReached(limit);
      return fail("SCRIPT_ERROR", formatError(read.name, read.message, read.stack, filename));
    }
  } catch (error) {
    // A host exception out of QuickJS (RangeError from the V8 stack, a WASM RuntimeError):
    // the module's state is suspect from here on.
    poisoned = true;
    outcome = isHostStackOverflow(error)
      ? stackOverflow()
      : fail(
          "INTERNAL",
          `The sandbox failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        );
  }
  prepared.current = null;
  outcome.poisoned = poisoned;
  if (options.deferDispose === true) return outcome;
  try {
    prepared.dispose();
  } catch (error) {
    outcome.poisoned = true;
    if (outcome.status === "ok") {
      outcome = fail("INTERNAL", `The sandbox failed while cleaning up: ${String(error)}`);
      outcome.poisoned = true;
    }
  }
  return outcome;
}
