/**
 * `@dcc/catalog`: layer 1 of the toolkit. A searchable catalog of a DCC's commands (names,
 * signatures, descriptions) with a ranker built for command names and flags, plus the upstream
 * token-overlap search. It depends only on `@dcc/cancel` (for the error base class).
 */
export { CatalogErrorCode } from "./catalog-error-code.ts";
export type { CatalogFileErrorOptions } from "./catalog-file-error.ts";
export { CatalogFileError } from "./catalog-file-error.ts";
export type { CatalogLineErrorOptions } from "./catalog-line-error.ts";
export { CatalogLineError } from "./catalog-line-error.ts";
export type { AddCommandOptions, CommandRecord } from "./command-record.ts";
export type { CommandRecordErrorOptions } from "./command-record-error.ts";
export { CommandRecordError } from "./command-record-error.ts";
export type { DccApiCatalogOptions, RankerName, SearchOptions } from "./dcc-api-catalog.ts";
export { DccApiCatalog } from "./dcc-api-catalog.ts";
export type { SynonymTable } from "./default-synonyms.ts";
export { DEFAULT_SYNONYMS } from "./default-synonyms.ts";
export type { KeywordFieldsErrorOptions } from "./keyword-fields-error.ts";
export { KeywordFieldsError } from "./keyword-fields-error.ts";
export type { RankerErrorOptions } from "./ranker-error.ts";
export { RankerError } from "./ranker-error.ts";
export type { SearchLimitErrorOptions } from "./search-limit-error.ts";
export { SearchLimitError } from "./search-limit-error.ts";
export type { SearchLimits } from "./search-limits.ts";
export { searchLimits } from "./search-limits.ts";
