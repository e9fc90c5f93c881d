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
import { stripTypes, wrapScript } from "./prepare-script.ts";
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

/** Runs `request` to completion and reports how it ended; never throws. */
export function runInSandbox(
  module: SandboxModule,
  request: RunRequest,
  host: SandboxHost,
): RunOutcome {
  const { limits } = request;
  const filename = request.filename ?? "script.ts";
  const logs: LogEntry[] = [];
  let logChars = 0;
  let droppedLogs = 0;
  let dispatchCalls = 0;
  let stop: Stop | null = null;
  let poisoned = false;

  const stopFrom = (reason: StopReason): Stop =>
    reason === "cancelled"
      ? { errorCode: "CANCELLED", error: "Script was cancelled" }
      : { errorCode: "TIMEOUT", error: "Script exceeded its timeout", limit: "timeout" };

  const finishLogs = (): LogEntry[] => {
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
      dispatchCalls,
      poisoned,
    };
    if (limit !== undefined) outcome.limit = limit;
    return outcome;
  };
  const failStopped = (): RunOutcome => {
    const current = stop as Stop;
    return fail(current.errorCode, current.error, current.limit);
  };

  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  const own = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };

  let outcome: RunOutcome;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    // Armed once the bootstrap ran: interrupting the bootstrap would look like a broken sandbox.
    let armed = false;
    runtime.setInterruptHandler(() => {
      if (!armed) return false;
      if (stop !== null) return true;
      const reason = host.checkStop();
      if (reason === null) return false;
      stop = stopFrom(reason);
      return true;
    });
    const ctx = runtime.newContext();
    context = ctx;

    const hostDispatch = own(
      ctx.newFunction("dispatch", (nameHandle, argsHandle) => {
        if (stop === null) {
          const reason = host.checkStop();
          if (reason !== null) stop = stopFrom(reason);
        }
        if (stop !== null) throw new Error(stop.error);
        if (dispatchCalls >= limits.maxDispatchCalls) {
          stop = {
            errorCode: "LIMIT_EXCEEDED",
            error: `Script made more than ${limits.maxDispatchCalls} dispatch calls (dispatch call limit)`,
            limit: "dispatchCalls",
          };
          throw new Error(stop.error);
        }
        dispatchCalls++;
        const reply = host.dispatch(ctx.getString(nameHandle), ctx.getString(argsHandle));
        if (reply === null) {
          stop ??= stopFrom(host.checkStop() ?? "cancelled");
          throw new Error(stop.error);
        }
        return ctx.newString(reply);
      }),
    );
    const hostLog = own(
      ctx.newFunction("log", (levelHandle, messageHandle) => {
        const level = ctx.getString(levelHandle);
        const message = ctx.getString(messageHandle);
        if (!logLevels.has(level)) return;
        if (logs.length >= limits.maxLogEntries || logChars + message.length > limits.maxLogChars) {
          droppedLogs++;
          return;
        }
        logChars += message.length;
        const entry: LogEntry = { level: level as LogLevel, message };
        logs.push(entry);
        host.log?.(entry);
      }),
    );
    const hostProgress = own(
      ctx.newFunction("progress", (doneHandle, totalHandle, messageHandle) => {
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
        host.progress?.(update);
      }),
    );
    const maxLogChars = own(ctx.newNumber(limits.maxLogChars));

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
      maxLogChars,
    );
    if (made.error) {
      own(made.error);
      throw new Error("The sandbox bootstrap failed to run");
    }
    const serialize = own(made.value);
    armed = true;

    outcome = evaluate(ctx, runtime);

    function evaluate(ctx: QuickJSContext, rt: QuickJSRuntime): RunOutcome {
      let wrapped: string;
      try {
        wrapped = wrapScript(request.code, request.entry);
      } catch (error) {
        return fail("SCRIPT_ERROR", String(error));
      }
      let result = ctx.evalCode(wrapped, filename);
      if (result.error && stop === null && isSyntaxError(ctx, result.error)) {
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
        if (stop !== null) return failStopped();
        return scriptError(ctx, error);
      }
      const promise = own(result.value);
      for (;;) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          const error = own(jobs.error);
          if (stop !== null) return failStopped();
          return scriptError(ctx, error);
        }
        if (stop !== null) return failStopped();
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
          if (stop !== null) return failStopped();
          return scriptError(ctx, error);
        }
        const value = own(state.value);
        const json = ctx.callFunction(serialize, ctx.undefined, value);
        if (json.error) {
          const error = own(json.error);
          if (stop !== null) return failStopped();
          return scriptError(ctx, error);
        }
        const text = own(json.value);
        // A cancel or deadline that raced the script's last steps still wins.
        if (stop === null) {
          const reason = host.checkStop();
          if (reason !== null) stop = stopFrom(reason);
        }
        if (stop !== null) return failStopped();
        if (ctx.typeof(text) !== "string")
          return fail("SCRIPT_ERROR", "Output is not serializable");
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
          dispatchCalls,
          poisoned,
        };
      }
    }

    function scriptError(ctx: QuickJSContext, error: QuickJSHandle): RunOutcome {
      // After an out-of-memory error even reading `name` needs memory; the script is over, so
      // lend it some headroom (the worker's WASM memory has 32 MiB of it).
      runtime?.setMemoryLimit(limits.memoryBytes + 4 * 1024 * 1024);
      const { name, message, stack } = readError(ctx, error);
      if (name === "InternalError" && /out of memory/.test(message)) {
        return fail(
          "LIMIT_EXCEEDED",
          `InternalError: out of memory (memory limit of ${formatBytes(limits.memoryBytes)} reached)`,
          "memory",
        );
      }
      if (name === "InternalError" && /stack overflow/.test(message)) {
        return fail(
          "LIMIT_EXCEEDED",
          `InternalError: stack overflow (stack limit of ${formatBytes(limits.stackBytes)} reached; recursion too deep)`,
          "stack",
        );
      }
      return fail("SCRIPT_ERROR", formatError(name, message, stack, filename));
    }
  } catch (error) {
    // A host exception out of QuickJS (RangeError from the V8 stack, a WASM RuntimeError):
    // the module's state is suspect from here on.
    poisoned = true;
    outcome = fail(
      "INTERNAL",
      `The sandbox failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
  try {
    for (let i = handles.length - 1; i >= 0; i--) {
      const handle = handles[i] as QuickJSHandle;
      if (handle.alive) handle.dispose();
    }
    context?.dispose();
    runtime?.dispose();
  } catch (error) {
    poisoned = true;
    if (outcome.status === "ok") {
      outcome = fail("INTERNAL", `The sandbox failed while cleaning up: ${String(error)}`);
    }
  }
  outcome.poisoned = poisoned;
  return outcome;
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

function readString(ctx: QuickJSContext, object: QuickJSHandle, key: string): string | undefined {
  const handle = ctx.getProp(object, key);
  try {
    return ctx.typeof(handle) === "string" ? ctx.getString(handle) : undefined;
  } finally {
    handle.dispose();
  }
}

function readError(
  ctx: QuickJSContext,
  error: QuickJSHandle,
): { name: string; message: string; stack: string } {
  try {
    if (ctx.typeof(error) === "object") {
      return {
        name: readString(ctx, error, "name") ?? "Error",
        message: readString(ctx, error, "message") ?? "",
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
