// Small helpers the benchmark modules share.

/** The median (the upper one of an even count) of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/**
 * The fraction of `cases` ({ query, expected }) for which `search(query, k)` (names, best first)
 * holds one of the expected names.
 */
export function recall(search, cases, k) {
  let found = 0;
  for (const { query, expected } of cases) {
    if (search(query, k).some((name) => expected.includes(name))) found++;
  }
  return found / cases.length;
}

/** MiniSearch's tokenizer for command names: words, and camelCase split like the catalog's. */
export const commandTokenize = (text) =>
  text.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
