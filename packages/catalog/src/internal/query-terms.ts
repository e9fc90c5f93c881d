import { rawWords } from "./split-words.ts";
import { wordStems } from "./term-weights.ts";

/** At most this many distinct stems are used from a query, so any query costs bounded time. */
export const maxQueryTerms = 32;
// Words scanned from the query text; a 10 KB query stops here.
const maxQueryWords = 256;

// The upstream six plus filler words agents put around the words that matter.
const stopwords: ReadonlySet<string> = new Set(
  (
    "the a an in for of to on onto into at by from with and or as is are be it its this that " +
    "these those some any all every each my me i we you your our please how do does can could " +
    "would should want need using via one another other two then so what which"
  ).split(" "),
);

/** The searchable parts of a query. */
export interface QueryTerms {
  /** Distinct stems, stopwords and pure numbers left out. */
  stems: string[];
  /** Lower-cased words, and adjacent pairs and triples joined, to recognise a whole name. */
  phrases: Set<string>;
}

/** Splits, filters and stems a query for the ranked index. */
export function queryTerms(query: string, cache: Map<string, string>): QueryTerms {
  const stems = new Set<string>();
  const phrases = new Set<string>();
  const original = rawWords(query, maxQueryWords);
  const words = original.map((word) => word.toLowerCase());
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    phrases.add(word);
    const next = words[index + 1];
    if (next !== undefined) {
      phrases.add(word + next);
      const third = words[index + 2];
      if (third !== undefined) phrases.add(word + next + third);
    }
    if (stopwords.has(word) || stems.size >= maxQueryTerms) continue;
    for (const term of wordStems(original[index] as string, cache)) {
      if (stems.size < maxQueryTerms && !stopwords.has(term)) stems.add(term);
    }
  }
  return { stems: [...stems], phrases };
}
