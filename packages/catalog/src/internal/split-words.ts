// Splits text into search words. Identifiers are split at camelCase humps, snake_case
// underscores and letter/digit boundaries: polySphere -> poly, sphere; XMLHttp2 -> xml, http, 2.

const word = /[\p{L}\p{M}\p{N}]+/gu;
const part = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+|\p{Lu}+|\p{N}+/gu;

/** Words of `text` (letters, marks and digits), in order, with their case kept. */
export function rawWords(text: string, limit: number = Number.POSITIVE_INFINITY): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(word)) {
    words.push(match[0]);
    if (words.length >= limit) break;
  }
  return words;
}

/** Lower-case parts of one identifier-like word: camelCase humps and digit runs. */
export function identifierParts(identifier: string): string[] {
  const parts = identifier.match(part);
  if (parts === null) return [identifier.toLowerCase()];
  return parts.map((piece) => piece.toLowerCase());
}
