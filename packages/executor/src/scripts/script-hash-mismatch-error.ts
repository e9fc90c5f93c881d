import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptHashMismatchError}. */
export interface ScriptHashMismatchErrorOptions {
  /** The script path. */
  filePath: string;
  /** The digest that was expected (given by the caller or recorded in the sidecar). */
  expected: string;
  /** The sha256 of the bytes on disk. */
  actual: string;
  /** Where the expected digest came from. */
  source: "request" | "sidecar";
  /** The underlying error, if any. */
  cause?: unknown;
}

/** The bytes of a script file differ from the sha256 the caller gave or its sidecar recorded. Code `SCRIPT_HASH_MISMATCH`. */
export class ScriptHashMismatchError extends DccMcpError {
  override readonly name: string = "ScriptHashMismatchError";
  /** The script path. */
  readonly filePath: string;
  /** The digest that was expected. */
  readonly expected: string;
  /** The sha256 of the bytes on disk. */
  readonly actual: string;

  constructor(options: ScriptHashMismatchErrorOptions) {
    super({
      code: ScriptErrorCode.HashMismatch,
      message: `Script content does not match the ${options.source === "request" ? "given" : "recorded"} sha256 ${options.expected} (file has ${options.actual}): ${options.filePath}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
    this.expected = options.expected;
    this.actual = options.actual;
  }
}
