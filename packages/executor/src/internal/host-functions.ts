// The three functions the guest bootstrap wraps: `dispatch` (synchronous host calls, with the
// dispatch call limit), `log` and `progress`. They serve whichever run the sandbox is running.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { ExecuteProgress } from "../execute-options.ts";
import { newRawStringFunction } from "./raw-string-function.ts";
import { type RunState, stopFrom } from "./sandbox-run-state.ts";

/** The host functions of one context, to hand to the bootstrap. */
export interface HostFunctions {
  dispatch: QuickJSHandle;
  log: QuickJSHandle;
  progress: QuickJSHandle;
}

/**
 * Creates the host functions in `ctx`; `current` gives the run being served (null between runs).
 * Each handle is passed to `own`, which disposes it with the sandbox.
 */
export function newHostFunctions(
  ctx: QuickJSContext,
  current: () => RunState | null,
  own: <T extends QuickJSHandle>(handle: T) => T,
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
      const reply = run.host.dispatch(call.slice(split + 1), call.slice(0, split));
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
  return { dispatch, log, progress };
}
