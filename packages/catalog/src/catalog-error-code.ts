/**
 * Stable codes of the errors `@dcc/catalog` throws, so callers can branch on `error.code`.
 */
export const CatalogErrorCode = {
  /** A catalog text line yields no usable command name. */
  InvalidCatalogLine: "CATALOG_INVALID_LINE",
  /** A command record is not an object, or its name is not a string. */
  InvalidCommandRecord: "CATALOG_INVALID_RECORD",
  /** A catalog JSON file could not be read or parsed. */
  InvalidCatalogFile: "CATALOG_INVALID_FILE",
  /** A search limit is not an integer from 1 to 50. */
  InvalidSearchLimit: "CATALOG_INVALID_LIMIT",
  /** An unknown ranker name was passed. */
  InvalidRanker: "CATALOG_INVALID_RANKER",
  /** The `keywordFields` option is not a list of field names that may be indexed. */
  InvalidKeywordFields: "CATALOG_INVALID_KEYWORD_FIELDS",
} as const;

/** One of the {@link CatalogErrorCode} values. */
export type CatalogErrorCode = (typeof CatalogErrorCode)[keyof typeof CatalogErrorCode];
