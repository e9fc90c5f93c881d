import type { SynonymTable } from "../default-synonyms.ts";
import { identifierParts } from "./split-words.ts";
import { stem } from "./stem.ts";

/** Stem -> the other stems it is a synonym of, merged from several tables. */
export type SynonymMap = ReadonlyMap<string, readonly string[]>;

/** Builds the stem-level synonym map of `tables`; groups sharing a word stay separate. */
export function buildSynonymMap(tables: readonly SynonymTable[]): SynonymMap {
  const related = new Map<string, Set<string>>();
  for (const table of tables) {
    for (const [key, words] of Object.entries(table)) {
      const group = [...new Set([key, ...words].map(normalise).filter((word) => word !== ""))];
      for (const word of group) {
        let set = related.get(word);
        if (set === undefined) {
          set = new Set();
          related.set(word, set);
        }
        for (const other of group) if (other !== word) set.add(other);
      }
    }
  }
  return new Map([...related].map(([word, set]) => [word, [...set]]));
}

function normalise(word: string): string {
  return stem(identifierParts(word.trim()).join(""));
}
