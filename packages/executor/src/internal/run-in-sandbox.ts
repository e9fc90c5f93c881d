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
import { guestStackCap } from "./native-stack.ts";
import { stripTypes, wrapScript } from "./prepare-script.ts";
import { newRawStringFunction } from "./raw-string-function.ts";
import type {
  LimitName,
  LogEntry,
  LogLevel,
  ProgressUpdate,
  RunErrorCode,
  RunOutcome,
  RunRequest,
} from "./sandbox-types.ts";

/** Why a run was stopped from outside. */
export type StopReason = "cancelled" | "timeout";

/** What the runner needs from whoever hosts it (the worker, or a test). */
export interface SandboxHost {
  /** Polled by the interrupt handler and around dispatch waits. */
  checkStop(): StopReason | null;
  /** Runs a host command; returns reply JSON text, or null when the run was stopped meanwhile. */
  dispatch(name: string, argsJson: string): string | null;
  log?(entry: LogEntry): void;
  progress?(update: ProgressUpdate): void;
}

/** The part of a QuickJS module the runner uses (a test module wrapper fits too). */
export type SandboxModule = Pick<QuickJSWASMModule, "newRuntime">;

interface Stop {
  errorCode: RunErrorCode;
  error: string;
  limit?: LimitName;
}

const logLevels = new Set<string>(["log", "info", "warn", "error"]);

// This thread's native stack does not change, so neither does the QuickJS limit it can honour.
const threadGuestStackCap = guestStackCap();

/** Mutable state of the run a prepared sandbox is currently serving. */
interface RunState {
  request: RunRequest;
  host: SandboxHost;
  logs: LogEntry[];
  logChars: number;
  droppedLogs: number;
  dispatchCalls: number;
  stop: Stop | null;
}

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
  current: RunState | null;
}

const stopFrom = (reason: StopReason): Stop =>
  reason === "cancelled"
    ? { errorCode: "CANCELLED", error: "Script was cancelled" }
    : { errorCode: "TIMEOUT", error: "Script exceeded its timeout", limit: "timeout" };

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

    // One string per call, `argsJson + "\u0001" + name` (JSON text never holds a raw control
    // character; U+0000 would end the C string), through the raw function path: the library's
    // call wrapper is most of a dispatch's cost in the worker.
    const hostDispatch = own(
      newRawStringFunction(ctx, "dispatch", (call) => {
        const run = state.current;
        if (run === null) throw new Error("No script is running");
        if (run.stop === null) {
          const reason = run.host.checkStop();
          if (reason !== null) run.stop = stopFrom(reason);
        }
        if (run.stop !== null) throw new Error(run.stop.error);
        const max = run.request.limits.maxDispatchCalls;
        if (run.dispatchCalls >= max) {
          run.stop = {
            errorCode: "LIMIT_EXCEEDED",
            error: `Script made more than ${max} dispatch calls (dispatch call limit)`,
            limit: "dispatchCalls",
          };
          throw new Error(run.stop.error);
        }
        run.dispatchCalls++;
        const split = call.indexOf("\u0001");
        const reply = run.host.dispatch(call.slice(split + 1), call.slice(0, split));
        if (reply === null) {
          run.stop ??= stopFrom(run.host.checkStop() ?? "cancelled");
          throw new Error(run.stop.error);
        }
        return reply;
      }),
    );
    const hostLog = own(
      ctx.newFunction("log", (levelHandle, messageHandle) => {
        const run = state.current;
        if (run === null) return;
        const level = ctx.getString(levelHandle);
        const message = ctx.getString(messageHandle);
        if (!logLevels.has(level)) return;
        const { maxLogEntries, maxLogChars: maxChars } = run.request.limits;
        if (run.logs.length >= maxLogEntries || run.logChars + message.length > maxChars) {
          run.droppedLogs++;
          return;
        }
        run.logChars += message.length;
        const entry: LogEntry = { level: level as LogLevel, message };
        run.logs.push(entry);
        run.host.log?.(entry);
      }),
    );
    const hostProgress = own(
      ctx.newFunction("progress", (doneHandle, totalHandle, messageHandle) => {
        const run = state.current;
        if (run === null) return;
        const done = ctx.getNumber(doneHandle);
        if (!Number.isFinite(done)) return;
        const update: ProgressUpdate = { progress: done };
        if (ctx.typeof(totalHandle) === "number") {
          const total = ctx.getNumber(totalHandle);
          if (Number.isFinite(total)) update.total = total;
        }
        if (ctx.typeof(messageHandle) === "string") {
          update.message = ctx.getString(messageHandle).slice(0, 1000);
        }
        run.host.progress?.(update);
      }),
    );
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
      hostDispatch,
      hostLog,
      hostProgress,
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
    logs: [],
    logChars: 0,
    droppedLogs: 0,
    dispatchCalls: 0,
    stop: null,
  };
  let poisoned = false;
  const handles = prepared.handles;
  const own = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };

  const finishLogs = (): LogEntry[] => {
    const { logs, droppedLogs } = run;
    if (droppedLogs > 0) {
      logs.push({
        level: "warn",
        message: `[${droppedLogs} more log entr${droppedLogs === 1 ? "y" : "ies"} dropped: log limit of ${limits.maxLogEntries} entries or ${limits.maxLogChars} characters reached]`,
      });
    }
    return logs;
  };
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
  const failStopped = (): RunOutcome => {
    const current = run.stop as Stop;
    return fail(current.errorCode, current.error, current.limit);
  };

  let outcome: RunOutcome;
  try {
    const { runtime: rt, context: ctx, serialize } = prepared;
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
      let result = ctx.evalCode(wrapped, filename);
      if (result.error && run.stop === null && isSyntaxError(ctx, result.error)) {
        // Not plain JavaScript: try it as TypeScript. Plain JS skips sucrase, which saves ~0.1 ms.
        let stripped: string | undefined;
        try {
          stripped = stripTypes(wrapped);
        } catch {
          // Not TypeScript either: QuickJS's own syntax error is the better message.
        }
        if (stripped !== undefined) {
          result.error.dispose();
          result = ctx.evalCode(stripped, filename);
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
        const json = ctx.callFunction(serialize, ctx.undefined, value);
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
        // Read the length first: copying a huge string out of the guest is the expensive part.
        const length = ctx.getNumber(own(ctx.getProp(text, "length")));
        if (length > limits.maxOutputChars) {
          return fail(
            "LIMIT_EXCEEDED",
            `Output is ${length} characters of JSON, over the output limit of ${limits.maxOutputChars} characters; return less data (for example a summary or a count)`,
            "output",
          );
        }
        return {
          status: "ok",
          outputJson: ctx.getString(text),
          logs: finishLogs(),
          dispatchCalls: run.dispatchCalls,
          poisoned,
        };
      }
    }

    function scriptError(error: QuickJSHandle): RunOutcome {
      // After an out-of-memory error even reading `name` needs memory; the script is over, so
      // lend it some headroom (the worker's WASM memory has room for it).
      rt.setMemoryLimit(limits.memoryBytes + 4 * 1024 * 1024);
      const { name, message, stack, unreadable } = readError(ctx, error);
      // Out of memory in the middle of building the error object leaves one whose properties
      // cannot be read at all (not even as undefined); the runtime is not to be trusted after it.
      if (unreadable) poisoned = true;
      if (unreadable || (name === "InternalError" && /out of memory/.test(message))) {
        return fail(
          "LIMIT_EXCEEDED",
          `InternalError: out of memory (memory limit of ${formatBytes(limits.memoryBytes)} reached)`,
          "memory",
        );
      }
      // The parsers (JavaScript and JSON) report their stack overflow as a SyntaxError.
      if ((name === "InternalError" || name === "SyntaxError") && message === "stack overflow") {
        return stackOverflow();
      }
      return fail("SCRIPT_ERROR", formatError(name, message, stack, filename));
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

/** V8's own stack limit tripped inside QuickJS (the guarantee above failed). */
function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

function isSyntaxError(ctx: QuickJSContext, error: QuickJSHandle): boolean {
  if (ctx.typeof(error) !== "object") return false;
  const name = ctx.getProp(error, "name");
  try {
    return ctx.typeof(name) === "string" && ctx.getString(name) === "SyntaxError";
  } finally {
    name.dispose();
  }
}

/** Reads a string property; `null` when the property cannot be read at all (an exception). */
function readString(
  ctx: QuickJSContext,
  object: QuickJSHandle,
  key: string,
): string | undefined | null {
  const handle = ctx.getProp(object, key);
  try {
    const type = ctx.typeof(handle);
    if (type === "string") return ctx.getString(handle);
    return type === "unknown" ? null : undefined;
  } finally {
    handle.dispose();
  }
}

function readError(
  ctx: QuickJSContext,
  error: QuickJSHandle,
): { name: string; message: string; stack: string; unreadable?: boolean } {
  try {
    if (ctx.typeof(error) === "object") {
      const name = readString(ctx, error, "name");
      const message = readString(ctx, error, "message");
      if (name === null && message === null) {
        return { name: "Error", message: "", stack: "", unreadable: true };
      }
      return {
        name: name ?? "Error",
        message: message ?? "",
        stack: readString(ctx, error, "stack") ?? "",
      };
    }
    const dumped: unknown = ctx.dump(error);
    return {
      name: "Error",
      message: `Uncaught ${JSON.stringify(dumped) ?? String(dumped)}`,
      stack: "",
    };
  } catch {
    return { name: "Error", message: "(the thrown value could not be read)", stack: "" };
  }
}

function formatError(name: string, message: string, stack: string, filename: string): string {
  // Keep frames in the agent's script; the `<eval>` frame is the wrapper's call, not their code.
  const frames = stack
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.includes(filename) && !line.startsWith("at <eval>"))
    .slice(0, 5);
  const head = message === "" ? name : `${name}: ${message}`;
  return frames.length === 0 ? head : `${head}\n    ${frames.join("\n    ")}`;
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
