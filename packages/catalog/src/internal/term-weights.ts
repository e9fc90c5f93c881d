import type { CommandRecord } from "../command-record.ts";
import { signatureParameters } from "./signature-parameters.ts";
import { identifierParts, rawWords } from "./split-words.ts";
import { stem } from "./stem.ts";

/** Field weights: the name says most about a command, then its flags, then its description. */
export const fieldWeight = { name: 3, signature: 1.2, description: 1 } as const;

const digits = /^\p{N}+$/u;

/** Per-command terms, before IDF and signature length normalisation. */
export interface CommandTerms {
  /** Stem -> best weight from the name or the description. */
  weights: Map<string, number>;
  /** Distinct stems of the signature's parameter names. */
  signatureStems: Set<string>;
  /** Distinct stems of the name's parts (digits left out). */
  nameStems: string[];
  /** Number of distinct signature parameters, for length normalisation. */
  parameterCount: number;
}

/** Stems of one word's identifier parts, digits left out. */
export function wordStems(word: string, cache: Map<string, string>): string[] {
  const stems: string[] = [];
  for (const part of identifierParts(word)) {
    if (digits.test(part)) continue;
    let stemmed = cache.get(part);
    if (stemmed === undefined) {
      stemmed = stem(part);
      cache.set(part, stemmed);
    }
    stems.push(stemmed);
  }
  return stems;
}

/** Collects the terms of `record`'s name, signature parameters and description. */
export function commandTerms(record: CommandRecord, cache: Map<string, string>): CommandTerms {
  const weights = new Map<string, number>();
  const add = (term: string, weight: number): void => {
    const previous = weights.get(term);
    if (previous === undefined || previous < weight) weights.set(term, weight);
  };
  const nameStems = new Set<string>();
  for (const word of rawWords(record.name)) {
    for (const term of wordStems(word, cache)) nameStems.add(term);
  }
  // The whole name as one term, so "polysphere" or "setattr" typed as one word still hits.
  const whole = stem(record.name.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, ""));
  if (whole !== "") add(whole, fieldWeight.name);
  for (const term of nameStems) add(term, fieldWeight.name);
  const parameters = new Set(
    typeof record.signature === "string" ? signatureParameters(record.signature, record.name) : [],
  );
  const signatureStems = new Set<string>();
  for (const parameter of parameters) {
    for (const term of wordStems(parameter, cache)) signatureStems.add(term);
  }
  if (typeof record.description === "string") {
    for (const word of rawWords(record.description)) {
      for (const term of wordStems(word, cache)) add(term, fieldWeight.description);
    }
  }
  return { weights, signatureStems, nameStems: [...nameStems], parameterCount: parameters.size };
}
