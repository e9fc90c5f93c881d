// Reading what a guest threw, and the text an agent sees for it: the error's name, message and
// the stack frames in their own script.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** V8's own stack limit tripped inside QuickJS (the native stack guarantee failed). */
export function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** Whether a thrown guest value is a `SyntaxError`. */
export function isSyntaxError(ctx: QuickJSContext, error: QuickJSHandle): boolean {
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

/**
 * A `dispatch` error nobody caught is named with its code and command (`CommandError (POLICY,
 * from script.python_file_run)`): its message alone does not say which command failed, or how.
 */
function commandLabel(ctx: QuickJSContext, error: QuickJSHandle, name: string): string {
  if (name !== "CommandError") return name;
  const code = readString(ctx, error, "code");
  const command = readString(ctx, error, "command");
  if (typeof code !== "string" || typeof command !== "string") return name;
  return `${name} (${bounded(code)}, from ${bounded(command)})`;
}

// A hostile script may use a name of a million characters: the message already quotes it, and
// the label must not push that message out of a trimmed result.
function bounded(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 60)}… (${text.length} characters)`;
}

/**
 * The name, message and stack of a thrown guest value; `unreadable` when not even its name and
 * message could be read (out of memory while it was built).
 */
export function readError(
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
        name: commandLabel(ctx, error, name ?? "Error"),
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

/** `Name: message` and up to five stack frames in `filename`. */
export function formatError(
  name: string,
  message: string,
  stack: string,
  filename: string,
): string {
  // Keep frames in the agent's script; the `<eval>` frame is the wrapper's call, not their code.
  const frames = stack
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.includes(filename) && !line.startsWith("at <eval>"))
    .slice(0, 5);
  const head = message === "" ? name : `${name}: ${message}`;
  return frames.length === 0 ? head : `${head}\n    ${frames.join("\n    ")}`;
}

/** A byte count in MiB, KiB or bytes, whichever is exact. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
