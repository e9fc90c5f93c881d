import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link NoMainFunctionError}. */
export interface NoMainFunctionErrorOptions {
  /** What was found instead of a usable `main`. */
  detail: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A script without a single top-level `function main(...)` declaration (or with one that cannot be called with parameters). Code `NO_MAIN_FUNCTION`. */
export class NoMainFunctionError extends DccMcpError {
  override readonly name: string = "NoMainFunctionError";

  constructor(options: NoMainFunctionErrorOptions) {
    super({
      code: ScriptErrorCode.NoMainFunction,
      message: `Script has no usable main function: ${options.detail}`,
      cause: options.cause,
    });
  }
}
