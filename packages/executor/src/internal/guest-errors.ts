// Reading what a guest threw, and the text an agent sees for it: the error's name, message and
// the stack frames in their own script.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { readGuestText } from "./guest-text.ts";

/** V8's own stack limit tripped inside QuickJS (the native stack guarantee failed). */
export function isHostStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** Whether a thrown guest value is a `SyntaxError`. */
export function isSyntaxError(
  ctx: QuickJSContext,
  error: QuickJSHandle,
  slice: QuickJSHandle,
): boolean {
  if (ctx.typeof(error) !== "object") return false;
  return readString(ctx, error, "name", slice) === "SyntaxError";
}

/**
 * Reads a string property, cut in the guest when long (see {@link readGuestText}); `null` when
 * the property cannot be read at all (an exception).
 */
function readString(
  ctx: QuickJSContext,
  object: QuickJSHandle,
  key: string,
  slice: QuickJSHandle,
  cut?: { maxChars: number; keepChars: number },
): string | undefined | null {
  const handle = ctx.getProp(object, key);
  try {
    const type = ctx.typeof(handle);
    if (type === "string") return readGuestText(ctx, handle, slice, cut?.maxChars, cut?.keepChars);
    return type === "unknown" ? null : undefined;
  } finally {
    handle.dispose();
  }
}

/**
 * A `dispatch` error nobody caught is named with its code and command (`CommandError (POLICY,
 * from script.python_file_run)`): its message alone does not say which command failed, or how.
 */
function commandLabel(
  ctx: QuickJSContext,
  error: QuickJSHandle,
  name: string,
  slice: QuickJSHandle,
): string {
  if (name !== "CommandError") return name;
  // A hostile script may use a name of a million characters: the message already quotes it, and
  // the label must not push that message out of a trimmed result.
  const code = readString(ctx, error, "code", slice, labelCut);
  const command = readString(ctx, error, "command", slice, labelCut);
  if (typeof code !== "string" || typeof command !== "string") return name;
  return `${name} (${code}, from ${command})`;
}

const labelCut = { maxChars: 80, keepChars: 60 };

/**
 * The name, message and stack of a thrown guest value, each cut in the guest when long (`slice`
 * is the guest cutter of {@link readGuestText}); `unreadable` when not even its name and message
 * could be read (out of memory while it was built).
 */
export function readError(
  ctx: QuickJSContext,
  error: QuickJSHandle,
  slice: QuickJSHandle,
): { name: string; message: string; stack: string; unreadable?: boolean } {
  try {
    const type = ctx.typeof(error);
    if (type === "object") {
      const name = readString(ctx, error, "name", slice);
      const message = readString(ctx, error, "message", slice);
      if (name === null && message === null) {
        return { name: "Error", message: "", stack: "", unreadable: true };
      }
      return {
        name: commandLabel(ctx, error, name ?? "Error", slice),
        message: message ?? "",
        stack: readString(ctx, error, "stack", slice) ?? "",
      };
    }
    if (type === "string") {
      const text = readGuestText(ctx, error, slice);
      return { name: "Error", message: `Uncaught ${JSON.stringify(text)}`, stack: "" };
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

/** The limit a QuickJS error stands for: its own out-of-memory and stack-overflow errors. */
export type GuestLimit = "memory" | "stack";

/**
 * Which limit a read error (from {@link readError}) reports, if any. QuickJS throws an
 * `InternalError` for both, or `null` when not even that error could be built; the parsers
 * (JavaScript and JSON) report their stack overflow as a `SyntaxError`.
 */
export function limitOf(error: {
  name: string;
  message: string;
  unreadable?: boolean;
}): GuestLimit | undefined {
  const { name, message } = error;
  if (error.unreadable === true || (name === "InternalError" && /out of memory/.test(message))) {
    return "memory";
  }
  if ((name === "InternalError" || name === "SyntaxError") && message === "stack overflow") {
    return "stack";
  }
  return undefined;
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
