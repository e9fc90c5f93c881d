import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** One failing field of a parameters object. */
export interface ParameterIssue {
  /** JSON Pointer-like path of the field, e.g. `scale` or `offset/1`; `""` is the whole object. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** Options for {@link InvalidParametersError}. */
export interface InvalidParametersErrorOptions {
  /** Every failing field, in validator order. */
  issues: readonly ParameterIssue[];
  /** The script path, when known. */
  filePath?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Parameters that do not satisfy the script's parameters schema. The message lists every failing
 * field, and {@link InvalidParametersError.issues} carries them structured. Code
 * `INVALID_PARAMETERS`.
 */
export class InvalidParametersError extends DccMcpError {
  override readonly name: string = "InvalidParametersError";
  /** Every failing field. */
  readonly issues: readonly ParameterIssue[];

  constructor(options: InvalidParametersErrorOptions) {
    const list = options.issues
      .map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`))
      .join("; ");
    const where = options.filePath === undefined ? "" : ` for ${options.filePath}`;
    super({
      code: ScriptErrorCode.InvalidParameters,
      message: `Invalid parameters${where}: ${list}`,
      cause: options.cause,
    });
    this.issues = options.issues;
  }
}
