// Python's `str.strip()` and `str.splitlines()` in JS. They differ from `trim()` and
// `split(/\r?\n/)`: Python strips \x1c-\x1f and \x85 but not \uFEFF, and splitlines also breaks
// on \v \f \x1c-\x1e \x85 \u2028 \u2029.

// Every code point for which Python's `str.isspace()` is true.
const space =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const stripPattern = new RegExp(`^[${space}]+|[${space}]+$`, "g");
// biome-ignore lint/suspicious/noControlCharactersInRegex: Python splitlines breaks on these.
const lineBreak = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** Python `text.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(stripPattern, "");
}

/** Python `text.splitlines()`: no trailing empty line after a final line break. */
export function pythonSplitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(lineBreak);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
