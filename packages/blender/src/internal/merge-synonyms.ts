import type { SynonymTable } from "@dcc/catalog";

/** Merges two synonym tables; a key present in both keeps the words of both. */
export function mergeSynonyms(base: SynonymTable, extra: SynonymTable): SynonymTable {
  const merged: Record<string, readonly string[]> = { ...base };
  for (const [key, words] of Object.entries(extra)) {
    merged[key] = [...new Set([...(merged[key] ?? []), ...words])];
  }
  return merged;
}
