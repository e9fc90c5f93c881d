import { DccMcpError } from "./dcc-mcp-error.ts";

/** The ambient variables that {@link setCancelToken} and {@link setCurrentJob} change. */
export type ContextVariable = "cancelToken" | "currentJob";

/**
 * Handle returned by {@link setCancelToken} / {@link setCurrentJob}, the analogue of a Python
 * `contextvars.Token`. Pass it once to the matching reset function, in the same scope.
 */
export interface ContextReset {
  /** Which variable the handle restores. */
  readonly variable: ContextVariable;
  /** True once the handle has been used. */
  readonly used: boolean;
}

/** Options for {@link ContextResetError}. */
export interface ContextResetErrorOptions {
  /** What was wrong with the handle. */
  message: string;
}

/**
 * Thrown when a reset handle is misused: used twice, given to the other variable's reset
 * function, not created by this package, or used outside the scope that created it.
 * Code `"INVALID_CONTEXT_RESET"`.
 */
export class ContextResetError extends DccMcpError {
  override readonly name: string = "ContextResetError";

  constructor(options: ContextResetErrorOptions) {
    super({ message: options.message, code: "INVALID_CONTEXT_RESET" });
  }
}
