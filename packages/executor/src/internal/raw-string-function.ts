// A guest function `(text: string) => string` whose calls skip quickjs-emscripten's generic
// C -> JS call wrapper (a generator, a scope and a lifetime object per argument: about half of a
// dispatch's cost in the worker). It reads the argument and makes the result with the same FFI
// calls the library's own getString/newString use. It relies on quickjs-emscripten-core 0.32
// internals (pinned exactly in package.json); when they are not there it falls back to
// `ctx.newFunction`, so only speed depends on them.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** The internals of a 0.32 QuickJSContext this fast path uses. */
interface ContextInternals {
  ctx: { value: number };
  module: {
    UTF8ToString(ptr: number): string;
    lengthBytesUTF8(text: string): number;
    stringToUTF8(text: string, ptr: number, maxBytes: number): void;
    _malloc(size: number): number;
    _free(ptr: number): void;
  };
  ffi: {
    QTS_ArgvGetJSValueConstPointer(argv: number, index: number): number;
    QTS_GetString(ctx: number, value: number): number;
    QTS_FreeCString(ctx: number, ptr: number): void;
    QTS_NewString(ctx: number, ptr: number): number;
    QTS_Throw(ctx: number, error: number): number;
  };
  getFunction(fnId: number): unknown;
  cToHostCallbacks: { callFunction: CallFunction };
}

type CallFunction = (
  ctx: number,
  thisPtr: number,
  argc: number,
  argv: number,
  fnId: number,
) => number;

function internalsOf(context: QuickJSContext): ContextInternals | null {
  const candidate = context as unknown as Partial<ContextInternals>;
  const { ctx, module, ffi, cToHostCallbacks } = candidate;
  if (
    typeof ctx?.value !== "number" ||
    typeof module?.UTF8ToString !== "function" ||
    typeof module.lengthBytesUTF8 !== "function" ||
    typeof module.stringToUTF8 !== "function" ||
    typeof module._malloc !== "function" ||
    typeof module._free !== "function" ||
    typeof ffi?.QTS_ArgvGetJSValueConstPointer !== "function" ||
    typeof ffi.QTS_GetString !== "function" ||
    typeof ffi.QTS_FreeCString !== "function" ||
    typeof ffi.QTS_NewString !== "function" ||
    typeof ffi.QTS_Throw !== "function" ||
    typeof candidate.getFunction !== "function" ||
    typeof cToHostCallbacks?.callFunction !== "function"
  ) {
    return null;
  }
  return candidate as ContextInternals;
}

/**
 * Makes a guest function that passes its first argument, converted to a string, to `fn` and
 * returns `fn`'s string. If `fn` throws, the guest sees an `Error` with its message.
 */
export function newRawStringFunction(
  context: QuickJSContext,
  name: string,
  fn: (text: string) => string,
): QuickJSHandle {
  const slow = (argument: QuickJSHandle | undefined): QuickJSHandle =>
    context.newString(fn(argument === undefined ? "undefined" : context.getString(argument)));
  const handle = context.newFunction(name, slow);
  const internals = internalsOf(context);
  if (internals === null) return handle;
  const { module, ffi, cToHostCallbacks } = internals;
  const generic = cToHostCallbacks.callFunction;
  cToHostCallbacks.callFunction = (ctx, thisPtr, argc, argv, fnId) => {
    if (argc < 1 || ctx !== internals.ctx.value || internals.getFunction(fnId) !== slow) {
      return generic(ctx, thisPtr, argc, argv, fnId);
    }
    let result: string;
    try {
      const chars = ffi.QTS_GetString(ctx, ffi.QTS_ArgvGetJSValueConstPointer(argv, 0));
      // QTS_GetString returns 0 when converting the argument threw in the guest.
      if (chars === 0) throw new TypeError("the argument is not convertible to a string");
      let text: string;
      try {
        text = module.UTF8ToString(chars);
      } finally {
        ffi.QTS_FreeCString(ctx, chars);
      }
      result = fn(text);
    } catch (error) {
      const errorHandle = context.newError(error instanceof Error ? error.message : String(error));
      try {
        return ffi.QTS_Throw(ctx, errorHandle.value as unknown as number);
      } finally {
        errorHandle.dispose();
      }
    }
    const bytes = module.lengthBytesUTF8(result) + 1;
    const buffer = module._malloc(bytes);
    try {
      module.stringToUTF8(result, buffer, bytes);
      // A new heap JSValue pointer: the C caller takes it over, as with the generic wrapper.
      return ffi.QTS_NewString(ctx, buffer);
    } finally {
      module._free(buffer);
    }
  };
  return handle;
}
