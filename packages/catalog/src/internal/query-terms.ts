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
  /** Adjacent pairs and triples of `stems` joined, to hit joined name runs and flags. */
  compounds: string[];
}

/** Splits, filters and stems a query for the ranked index. */
export function queryTerms(query: string, cache: Map<string, readonly string[]>): QueryTerms {
  const stems = new Set<string>();
  const sequence: string[] = [];
  for (const word of rawWords(query, maxQueryWords)) {
    if (stopwords.has(word.toLowerCase())) continue;
    for (const term of wordStems(word, cache)) {
      if (stopwords.has(term)) continue;
      sequence.push(term);
      stems.add(term);
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
  for (const term of stems) compounds.delete(term);
  return { stems: [...stems].slice(0, maxQueryTerms), compounds: [...compounds] };
}
