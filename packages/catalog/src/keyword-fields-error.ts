import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";

/** Options for {@link KeywordFieldsError}. */
export interface KeywordFieldsErrorOptions {
  /** The rejected `keywordFields` option, as given. */
  keywordFields: unknown;
  /** What is wrong with it. */
  reason: string;
}

/**
 * Thrown when a {@link DccApiCatalog} is given a `keywordFields` option that is not an array of
 * non-empty field names, or that names `name`, `signature` or `description` (always indexed).
 */
export class KeywordFieldsError extends DccMcpError {
  override readonly name: string = "KeywordFieldsError";
  /** The rejected `keywordFields` option, as given. */
  readonly keywordFields: unknown;

  constructor(options: KeywordFieldsErrorOptions) {
    super({
      code: CatalogErrorCode.InvalidKeywordFields,
      message: `Invalid keywordFields: ${options.reason}.`,
    });
    this.keywordFields = options.keywordFields;
  }
}
