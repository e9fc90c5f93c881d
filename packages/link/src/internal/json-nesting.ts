/**
 * How deep serialised JSON nests, found by scanning its text once: no parse, no recursion.
 * Strings are skipped whole, so brackets inside them do not count. Exported as
 * `@dcc/link/json-nesting` (see ../json-nesting.ts), which `@dcc/executor` imports.
 */

const quote = 0x22;
const backslash = 0x5c;
const openArray = 0x5b;
const closeArray = 0x5d;
const openObject = 0x7b;
const closeObject = 0x7d;

/** Whether the JSON text `json` has a value nested more than `maxDepth` levels deep (the
 * outermost object or array is level 1). */
export function nestsDeeperThan(json: string, maxDepth: number): boolean {
  // Each level takes two characters at least.
  if (json.length <= 2 * maxDepth) return false;
  let depth = 0;
  for (let index = 0; index < json.length; index++) {
    const code = json.charCodeAt(index);
    if (code === quote) {
      index = stringEnd(json, index);
    } else if (code === openArray || code === openObject) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (code === closeArray || code === closeObject) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opening at `start` (or the text's end). */
function stringEnd(json: string, start: number): number {
  let index = start;
  for (;;) {
    index = json.indexOf('"', index + 1);
    if (index === -1) return json.length;
    let backslashes = 0;
    while (json.charCodeAt(index - 1 - backslashes) === backslash) backslashes++;
    if (backslashes % 2 === 0) return index;
  }
}
