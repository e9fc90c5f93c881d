// The functions the guest bootstrap wraps: `dispatch` (synchronous host calls, with the dispatch
// call limit), `log`, `progress`, and `jobError`, which is shown what promise callbacks throw.
// They serve whichever run the sandbox is running.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { ExecuteProgress } from "../execute-options.ts";
import { argsRefusal } from "./args-bounds.ts";
import { limitOf, readError } from "./guest-errors.ts";
import { newRawStringFunction } from "./raw-string-function.ts";
import { type RunState, stopFrom } from "./sandbox-run-state.ts";

/** The host functions of one context, to hand to the bootstrap. */
export interface HostFunctions {
  dispatch: QuickJSHandle;
  log: QuickJSHandle;
  progress: QuickJSHandle;
  jobError: QuickJSHandle;
}

/** Headroom lent while the host reads an error thrown at the memory limit. */
export const ERROR_READ_HEADROOM_BYTES: number = 4 * 1024 * 1024;

/** What {@link newHostFunctions} needs besides the context. */
export interface HostFunctionsOptions {
  /** The run being served (null between runs). */
  current: () => RunState | null;
  /** Takes each handle made, to dispose it with the sandbox. */
  own: <T extends QuickJSHandle>(handle: T) => T;
  /** The guest string cutter (see `readGuestText`). */
  slice: QuickJSHandle;
}

/** Creates the host functions in `ctx`. */
export function newHostFunctions(
  ctx: QuickJSContext,
  { current, own, slice }: HostFunctionsOptions,
): HostFunctions {
  // One string per call, `argsJson + "\u0001" + name` (JSON text never holds a raw control
  // character; U+0000 would end the C string), through the raw function path: the library's
  // call wrapper is most of a dispatch's cost in the worker.
  const dispatch = own(
    newRawStringFunction(ctx, "dispatch", (call) => {
      const run = current();
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
      const name = call.slice(split + 1);
      const argsJson = call.slice(0, split);
      const refused = argsRefusal(name, argsJson, run.request.limits);
      if (refused !== undefined) return refused;
      const reply = run.host.dispatch(name, argsJson);
      if (reply === null) {
        run.stop ??= stopFrom(run.host.checkStop() ?? "cancelled");
        throw new Error(run.stop.error);
      }
      return reply;
    }),
  );
  const log = own(
    ctx.newFunction("log", (levelHandle, messageHandle) => {
      const run = current();
      if (run === null) return;
      const entry = run.logs.add(ctx.getString(levelHandle), ctx.getString(messageHandle));
      if (entry !== undefined) run.host.log?.(entry);
    }),
  );
  const progress = own(
    ctx.newFunction("progress", (doneHandle, totalHandle, messageHandle) => {
      const run = current();
      if (run === null) return;
      const done = ctx.getNumber(doneHandle);
      if (!Number.isFinite(done)) return;
      const update: ExecuteProgress = { progress: done };
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
  const jobError = own(
    ctx.newFunction("jobError", (errorHandle) => {
      const run = current();
      if (run === null || run.jobLimit !== null || errorHandle === undefined) return;
      // Reading an error thrown at the memory limit needs memory itself.
      const { runtime } = ctx;
      const limit = run.request.limits.memoryBytes;
      runtime.setMemoryLimit(limit + ERROR_READ_HEADROOM_BYTES);
      try {
        const read = readError(ctx, errorHandle, slice);
        // A read a stop interrupted says nothing about the error (the stop ends the run anyway).
        if (run.stop === null) run.jobLimit = limitOf(read) ?? null;
      } finally {
        runtime.setMemoryLimit(limit);
      }
    }),
  );
  return { dispatch, log, progress, jobError };
}
