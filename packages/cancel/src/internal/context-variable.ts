import type { CancellationProbe } from "../cancellation-probe.ts";
import { type ContextReset, ContextResetError, type ContextVariable } from "../context-reset.ts";
import type { JobHandle } from "../job-handle.ts";
import { type AmbientStore, currentStore, storage } from "./ambient-store.ts";

type Value = CancellationProbe | JobHandle | null;

class ResetHandle implements ContextReset {
  used = false;
  readonly variable: ContextVariable;
  readonly previous: Value;
  readonly scope: object;

  constructor(variable: ContextVariable, previous: Value, scope: object) {
    this.variable = variable;
    this.previous = previous;
    this.scope = scope;
  }
}

function read(store: AmbientStore, variable: ContextVariable): Value {
  return variable === "cancelToken" ? store.token : store.job;
}

function write(store: AmbientStore, variable: ContextVariable, value: Value): AmbientStore {
  return variable === "cancelToken" ? { ...store, token: value } : { ...store, job: value };
}

/**
 * Installs `value` for the rest of the current execution and everything it starts later
 * (`enterWith`), and returns a handle that restores the value it replaced.
 */
export function setVariable(variable: ContextVariable, value: Value): ContextReset {
  const store = currentStore();
  const handle = new ResetHandle(variable, read(store, variable), store.scope);
  storage.enterWith(write(store, variable, value));
  return handle;
}

/**
 * Restores the value the handle's `set` replaced, as Python's `ContextVar.reset` does: in any
 * order, each reset puts back exactly what its own set found. Other variables are untouched.
 */
export function resetVariable(variable: ContextVariable, handle: ContextReset): void {
  if (!(handle instanceof ResetHandle)) {
    throw new ContextResetError({ message: "The reset handle was not created by @dcc/cancel" });
  }
  if (handle.variable !== variable) {
    throw new ContextResetError({
      message: `The reset handle belongs to ${handle.variable}, not ${variable}`,
    });
  }
  if (handle.used) throw new ContextResetError({ message: "The reset handle was already used" });
  const store = currentStore();
  if (store.scope !== handle.scope) {
    throw new ContextResetError({
      message: "The reset handle was created in a different scope",
    });
  }
  handle.used = true;
  storage.enterWith(write(store, variable, handle.previous));
}
