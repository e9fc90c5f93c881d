/**
 * Stable codes of the errors the materialized-script layer throws, so callers can branch without
 * matching messages.
 */
export const ScriptErrorCode = {
  PathOutsideRoot: "SCRIPT_PATH_OUTSIDE_ROOT",
  NotFound: "SCRIPT_NOT_FOUND",
  HashMismatch: "SCRIPT_HASH_MISMATCH",
  SchemaConflict: "SCRIPT_SCHEMA_CONFLICT",
  Expired: "SCRIPT_EXPIRED",
  MetadataInvalid: "SCRIPT_METADATA_INVALID",
  SyntaxError: "SCRIPT_SYNTAX_ERROR",
  NoMainFunction: "NO_MAIN_FUNCTION",
  UnsupportedParameterType: "UNSUPPORTED_PARAMETER_TYPE",
  InvalidParameters: "INVALID_PARAMETERS",
  InvalidOptions: "INVALID_SCRIPT_OPTIONS",
} as const;

/** One of the {@link ScriptErrorCode} values. */
export type ScriptErrorCode = (typeof ScriptErrorCode)[keyof typeof ScriptErrorCode];
