import { identifierParts, rawWords } from "./split-words.ts";
import { partStems } from "./term-weights.ts";

/** At most this many distinct stems are used from a query, so any query costs bounded time. */
export const maxQueryTerms = 32;
// Words scanned from the query text; a 10 KB query stops here.
const maxQueryWords = 256;

// The upstream six plus filler words agents put around the words that matter.
const stopwords: ReadonlySet<string> = new Set(
  (
    "the a an in for of to on onto into at by from with and or as is are be it its this that " +
    "these those some any all every each my me i we you your our please how do does can could " +
    "would should want need using via one another other two then so what which am was were been " +
    "being has have had did"
  ).split(" "),
);

/** One query word's searchable parts: each lower-case identifier part and its stem. */
export type QueryWordParts = readonly (readonly [part: string, stem: string])[];

/** The searchable parts of a query. */
export interface QueryTerms {
  /** Distinct stems, stopwords and pure numbers left out. */
  stems: string[];
  /**
   * Per stem, the lower-case word part it first came from (`spehre` for `spehr`): typos are
   * looked up on the words as typed, not on stems that cut their endings differently.
   */
  surfaces: string[];
  /** Adjacent pairs and triples of `stems` joined, to hit joined name runs and flags. */
  compounds: string[];
}

/** Splits, filters and stems a query for the ranked index; `cache` memoises words. */
export function queryTerms(query: string, cache: Map<string, QueryWordParts>): QueryTerms {
  const stems = new Map<string, string>();
  const sequence: string[] = [];
  for (const word of rawWords(query, maxQueryWords)) {
    if (stopwords.has(word.toLowerCase())) continue;
    for (const [part, term] of wordParts(word, cache)) {
      if (stopwords.has(term)) continue;
      sequence.push(term);
      if (!stems.has(term)) stems.set(term, part);
    }
    if (stems.size >= maxQueryTerms) break;
  }
  const compounds = new Set<string>();
  for (let index = 0; index + 1 < sequence.length && compounds.size < maxQueryTerms; index++) {
    const pair = (sequence[index] as string) + (sequence[index + 1] as string);
    compounds.add(pair);
    const third = sequence[index + 2];
    if (third !== undefined) compounds.add(pair + third);
  }
  for (const term of stems.keys()) compounds.delete(term);
  const kept = [...stems].slice(0, maxQueryTerms);
  return {
    stems: kept.map(([term]) => term),
    surfaces: kept.map(([, part]) => part),
    compounds: [...compounds],
  };
}

// Parts and stems of one query word, digits left out, memoised per word.
function wordParts(word: string, cache: Map<string, QueryWordParts>): QueryWordParts {
  let found = cache.get(word);
  if (found === undefined) {
    const stemCache = new Map<string, string>();
    const pairs: [string, string][] = [];
    for (const part of identifierParts(word)) {
      const [term] = partStems(part, stemCache);
      if (term !== undefined) pairs.push([part, term]);
    }
    found = pairs;
    cache.set(word, found);
  }
  return found;
}
