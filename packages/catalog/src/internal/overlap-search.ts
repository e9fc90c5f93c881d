import type { CommandRecord } from "../command-record.ts";
import { compareCodePoints } from "./compare-code-points.ts";

// The upstream tokeniser: Python `re.split(r"[\s\W]+", query.lower())` with Unicode `\w`.
const separator = /[^\p{L}\p{N}_]+/u;
const stopwords: ReadonlySet<string> = new Set(["the", "a", "an", "in", "for", "of"]);

/** Distinct query tokens are capped so a huge query costs bounded time. */
export const maxQueryTokens = 32;

/** Upstream query tokens: lower-cased, split, distinct, without `""` and the six stopwords. */
export function overlapTokens(query: string): string[] {
  const tokens = new Set<string>();
  for (const token of query.toLowerCase().split(separator)) {
    if (token === "" || stopwords.has(token)) continue;
    tokens.add(token);
    if (tokens.size >= maxQueryTokens) break;
  }
  return [...tokens];
}

/** The lower-cased text upstream searches: name, description and signature joined by spaces. */
export function overlapHaystack(record: CommandRecord): string {
  return `${record.name} ${record.description ?? ""} ${record.signature ?? ""}`.toLowerCase();
}

/**
 * Upstream scoring: each distinct token found as a substring of the haystack adds 1. Zero scores
 * are dropped; order is score descending, then name by code point (stable).
 */
export function overlapSearch(
  records: readonly CommandRecord[],
  haystacks: readonly string[],
  query: string,
  limit: number,
): CommandRecord[] {
  const tokens = overlapTokens(query);
  if (tokens.length === 0) return [];
  const hits: { record: CommandRecord; score: number; order: number }[] = [];
  for (let index = 0; index < records.length; index++) {
    const haystack = haystacks[index] as string;
    let score = 0;
    for (const token of tokens) if (haystack.includes(token)) score++;
    if (score > 0) hits.push({ record: records[index] as CommandRecord, score, order: index });
  }
  hits.sort(
    (left, right) =>
      right.score - left.score ||
      compareCodePoints(left.record.name, right.record.name) ||
      left.order - right.order,
  );
  return hits.slice(0, limit).map((hit) => hit.record);
}
