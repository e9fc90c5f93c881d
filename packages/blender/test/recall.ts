// Recall of a catalog on the agent-query set, shared by the recall test and the benchmark's
// measurement of the same figure.
import type { DccApiCatalog } from "@dcc/catalog";
import queries from "./fixtures/agent-queries.json" with { type: "json" };

/** One agent-style query and the commands any one of which answers it. */
export interface AgentQuery {
  query: string;
  expected: string[];
}

/** The fixed agent-query set (`test/fixtures/agent-queries.json`). */
export const AGENT_QUERIES: readonly AgentQuery[] = queries;

/** Share of queries with an expected command among the first `k` results, and the misses. */
export function recallAt(catalog: DccApiCatalog, k: number): { recall: number; misses: string[] } {
  const misses: string[] = [];
  for (const { query, expected } of AGENT_QUERIES) {
    const names = catalog.search(query, { limit: k }).map((record) => record.name);
    if (!expected.some((name) => names.includes(name))) {
      misses.push(`${query} -> ${names.join(", ")}`);
    }
  }
  return { recall: 1 - misses.length / AGENT_QUERIES.length, misses };
}
