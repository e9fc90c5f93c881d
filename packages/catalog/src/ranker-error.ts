import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";

/** Options for {@link RankerError}. */
export interface RankerErrorOptions {
  /** The rejected ranker name, as given. */
  ranker: unknown;
}

/** Thrown when a {@link DccApiCatalog} is given a ranker other than `"ranked"` or `"overlap"`. */
export class RankerError extends DccMcpError {
  override readonly name: string = "RankerError";
  /** The rejected ranker name, as given. */
  readonly ranker: unknown;

  constructor(options: RankerErrorOptions) {
    super({
      code: CatalogErrorCode.InvalidRanker,
      message: `Unknown ranker ${JSON.stringify(String(options.ranker))}: use "ranked" or "overlap".`,
    });
    this.ranker = options.ranker;
  }
}
