/** The range of {@link DccApiCatalog.search}'s `limit`. */
export interface SearchLimits {
  /** Results when a search gives no `limit`. */
  readonly defaultLimit: number;
  /** Largest accepted `limit` (the smallest is 1). */
  readonly maxLimit: number;
}

/**
 * The one place the search limit's range is written: the catalog enforces it, the executor
 * clamps to it, and the MCP search tool's schema is built from it.
 */
export const searchLimits: Readonly<SearchLimits> = Object.freeze({
  defaultLimit: 10,
  maxLimit: 50,
});
