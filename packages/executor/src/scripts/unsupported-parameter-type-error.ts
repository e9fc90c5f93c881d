import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link UnsupportedParameterTypeError}. */
export interface UnsupportedParameterTypeErrorOptions {
  /** The parameter of `main` (or its position when it has no name). */
  parameter: string;
  /** What is unsupported and what to write instead. */
  detail: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A `main` parameter whose declared type cannot be carried as JSON without changing its meaning. Code `UNSUPPORTED_PARAMETER_TYPE`. */
export class UnsupportedParameterTypeError extends DccMcpError {
  override readonly name: string = "UnsupportedParameterTypeError";
  /** The parameter of `main` (or its position when it has no name). */
  readonly parameter: string;

  constructor(options: UnsupportedParameterTypeErrorOptions) {
    super({
      code: ScriptErrorCode.UnsupportedParameterType,
      message: `Parameter '${options.parameter}' of main: ${options.detail}`,
      cause: options.cause,
    });
    this.parameter = options.parameter;
  }
}
