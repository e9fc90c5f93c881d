import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptSchemaConflictError}. */
export interface ScriptSchemaConflictErrorOptions {
  /** The script path. */
  filePath: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A sidecar whose recorded parameters schema differs from the one derived from the script body. Code `SCRIPT_SCHEMA_CONFLICT`. */
export class ScriptSchemaConflictError extends DccMcpError {
  override readonly name: string = "ScriptSchemaConflictError";
  /** The script path. */
  readonly filePath: string;

  constructor(options: ScriptSchemaConflictErrorOptions) {
    super({
      code: ScriptErrorCode.SchemaConflict,
      message: `The parametersSchema recorded in the sidecar of ${options.filePath} conflicts with the schema derived from the script body; rematerialize the script`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
  }
}
