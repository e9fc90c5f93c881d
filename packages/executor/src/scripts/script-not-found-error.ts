import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptNotFoundError}. */
export interface ScriptNotFoundErrorOptions {
  /** The path as the caller gave it. */
  filePath: string;
  /** What is there instead, when something is (e.g. "a directory"). */
  detail?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** No regular script file at a path inside the scripts root. Code `SCRIPT_NOT_FOUND`. */
export class ScriptNotFoundError extends DccMcpError {
  override readonly name: string = "ScriptNotFoundError";
  /** The path as the caller gave it. */
  readonly filePath: string;

  constructor(options: ScriptNotFoundErrorOptions) {
    super({
      code: ScriptErrorCode.NotFound,
      message:
        options.detail === undefined
          ? `Script file not found: ${options.filePath}`
          : `Script file not found: ${options.filePath} (${options.detail})`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
  }
}
