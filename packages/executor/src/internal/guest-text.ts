// Copying a guest string out with a cap: its length is read first, and a long string is cut
// inside the guest, so a huge thrown message or name never becomes a huge host string (copying
// is what costs host memory, many times over when many scripts throw at once).
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/** The most characters of one guest string (an error's name, message or stack) the host copies. */
export const MAX_GUEST_TEXT_CHARS = 10_000;

/**
 * Guest source of the cutter, `(text, start, end) => text.slice(start, end)`, evaluated before any
 * script runs: bound to the built-in `slice`, so a script that replaces it only breaks itself.
 */
export const GUEST_SLICE_SOURCE = "Function.prototype.call.bind(String.prototype.slice)";

/**
 * The text of the guest string `text` when it has at most `maxChars` characters (default
 * {@link MAX_GUEST_TEXT_CHARS}); a longer one is cut to its first `keepChars` (default
 * `maxChars`) in the guest by `slice` (from {@link GUEST_SLICE_SOURCE}), followed by a note of its
 * full length.
 */
export function readGuestText(
  ctx: QuickJSContext,
  text: QuickJSHandle,
  slice: QuickJSHandle,
  maxChars: number = MAX_GUEST_TEXT_CHARS,
  keepChars: number = maxChars,
): string {
  const lengthHandle = ctx.getProp(text, "length");
  const length = ctx.typeof(lengthHandle) === "number" ? ctx.getNumber(lengthHandle) : 0;
  lengthHandle.dispose();
  if (length <= maxChars) return ctx.getString(text);
  const start = ctx.newNumber(0);
  const end = ctx.newNumber(keepChars);
  const cut = ctx.callFunction(slice, ctx.undefined, text, start, end);
  start.dispose();
  end.dispose();
  if (cut.error) {
    cut.error.dispose();
    return `(${length} characters, not read)`;
  }
  try {
    return `${ctx.getString(cut.value)}… (${length} characters)`;
  } finally {
    cut.value.dispose();
  }
}
