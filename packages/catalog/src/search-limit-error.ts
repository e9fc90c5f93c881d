import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";
import { searchLimits } from "./search-limits.ts";

/** Options for {@link SearchLimitError}. */
export interface SearchLimitErrorOptions {
  /** The rejected limit, as given. */
  limit: unknown;
}

/** Thrown by {@link DccApiCatalog.search} when `limit` is not an integer from 1 to 50. */
export class SearchLimitError extends DccMcpError {
  override readonly name: string = "SearchLimitError";
  /** The rejected limit, as given. */
  readonly limit: unknown;

  constructor(options: SearchLimitErrorOptions) {
    super({
      code: CatalogErrorCode.InvalidSearchLimit,
      message: `Search limit must be an integer from 1 to ${searchLimits.maxLimit}, got ${describe(options.limit)}.`,
    });
    this.limit = options.limit;
  }
}

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
