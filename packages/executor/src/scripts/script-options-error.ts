import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptOptionsError}. */
export interface ScriptOptionsErrorOptions {
  /** The option that is wrong, e.g. "ttlSecs". */
  option: string;
  /** What is wrong with it. */
  detail: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A materialization or execution option with an invalid value. Code `INVALID_SCRIPT_OPTIONS`. */
export class ScriptOptionsError extends DccMcpError {
  override readonly name: string = "ScriptOptionsError";
  /** The option that is wrong. */
  readonly option: string;

  constructor(options: ScriptOptionsErrorOptions) {
    super({
      code: ScriptErrorCode.InvalidOptions,
      message: `${options.option} ${options.detail}`,
      cause: options.cause,
    });
    this.option = options.option;
  }
}
