import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptSyntaxError}. */
export interface ScriptSyntaxErrorOptions {
  /** The parser message. */
  detail: string;
  /** 1-based line of the error. */
  line: number;
  /** 1-based column of the error. */
  column: number;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A script the parser rejects, so no parameters schema can be derived from it. Code `SCRIPT_SYNTAX_ERROR`. */
export class ScriptSyntaxError extends DccMcpError {
  override readonly name: string = "ScriptSyntaxError";
  /** 1-based line of the error. */
  readonly line: number;
  /** 1-based column of the error. */
  readonly column: number;

  constructor(options: ScriptSyntaxErrorOptions) {
    super({
      code: ScriptErrorCode.SyntaxError,
      message: `Script does not parse at line ${options.line}, column ${options.column}: ${options.detail}`,
      cause: options.cause,
    });
    this.line = options.line;
    this.column = options.column;
  }
}
