import { identifierParts } from "./split-words.ts";
import { stem } from "./stem.ts";

/** Field weights: the name says most about a command, then its flags, then its description. */
export const fieldWeight = { name: 3, signature: 1.2, description: 1 } as const;

/**
 * Field length normalisation (BM25's b): a flag match in a command with hundreds of flags says
 * less than one in a command with five, and a name part of createPolyCubeCtx less than of polyCube.
 */
export const lengthNormalisation = 0.5;

/** `weight` scaled down for a field longer than average (ratio > 1), up for a shorter one. */
export function normalisedWeight(weight: number, lengthRatio: number): number {
  return weight / (1 - lengthNormalisation + lengthNormalisation * lengthRatio);
}

const digits = /^\p{N}+$/u;

/**
 * Stems of one word's identifier parts, digits left out, with each part's stem memoised in
 * `parts` (`""` for a number): flags share most of their parts.
 */
export function partStems(word: string, parts: Map<string, string>): string[] {
  const stems: string[] = [];
  for (const part of identifierParts(word)) {
    let stemmed = parts.get(part);
    if (stemmed === undefined) {
      stemmed = isNumber(part) ? "" : stem(part);
      parts.set(part, stemmed);
    }
    if (stemmed !== "") stems.push(stemmed);
  }
  return stems;
}

function isNumber(part: string): boolean {
  const code = part.charCodeAt(0);
  if (code < 128) return code >= 48 && code <= 57;
  return digits.test(part);
}
