// Splits text into search words. Identifiers are split at camelCase humps, snake_case
// underscores and letter/digit boundaries: polySphere -> poly, sphere; XMLHttp2 -> xml, http, 2.
// ASCII words take a hand-written fast path; other scripts use Unicode property regexes.

const word = /[\p{L}\p{M}\p{N}]+/gu;
const identifier = /[\p{L}\p{M}\p{N}_]+/gu;
const part = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+|\p{Lu}+|\p{N}+/gu;
const ascii = /^[\x20-\x7e]*$/;

/** Words of `text` (letters, marks and digits), in order, with their case kept. */
export function rawWords(text: string, limit: number = Number.POSITIVE_INFINITY): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(word)) {
    words.push(match[0]);
    if (words.length >= limit) break;
  }
  return words;
}

/**
 * Identifier-like words of `text` (letters, marks, digits and underscores), in order, with their
 * case kept: the words `signatureParameters` yields from a signature, so a flag listed both
 * in a signature and in a keyword field is one word.
 */
export function identifierWords(text: string): string[] {
  if (isAsciiIdentifier(text)) return [text];
  const words: string[] = [];
  for (const match of text.matchAll(identifier)) words.push(match[0]);
  return words;
}

// Flag names are mostly plain ASCII identifiers: one word, no regex needed.
function isAsciiIdentifier(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const letterOrDigit =
      (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
    if (!letterOrDigit && code !== 95) return false;
  }
  return true;
}

/** Lower-case parts of one identifier-like word: camelCase humps and digit runs. */
export function identifierParts(identifier: string): string[] {
  if (ascii.test(identifier)) return asciiParts(identifier);
  const parts = identifier.match(part);
  if (parts === null) return [];
  return parts.map((piece) => piece.toLowerCase());
}

// Character kinds of the ASCII fast path.
const Kind = { Other: 0, Upper: 1, Lower: 2, Digit: 3 } as const;

function kind(code: number): number {
  if (code >= 97 && code <= 122) return Kind.Lower;
  if (code >= 65 && code <= 90) return Kind.Upper;
  if (code >= 48 && code <= 57) return Kind.Digit;
  return Kind.Other;
}

// The same split as `part` for ASCII: XMLHttp2 -> XML | Http | 2.
function asciiParts(identifier: string): string[] {
  const parts: string[] = [];
  let start = -1;
  for (let index = 0; index <= identifier.length; index++) {
    const current = index < identifier.length ? kind(identifier.charCodeAt(index)) : Kind.Other;
    if (start >= 0) {
      const previous = kind(identifier.charCodeAt(index - 1));
      const next =
        index + 1 < identifier.length ? kind(identifier.charCodeAt(index + 1)) : Kind.Other;
      const boundary =
        current === Kind.Other ||
        (current === Kind.Digit) !== (previous === Kind.Digit) ||
        (current === Kind.Upper && previous === Kind.Lower) ||
        (current === Kind.Upper && previous === Kind.Upper && next === Kind.Lower);
      if (boundary) {
        parts.push(identifier.slice(start, index).toLowerCase());
        start = -1;
      }
    }
    if (start < 0 && current !== Kind.Other) start = index;
  }
  return parts;
}
