import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptPathOutsideRootError}. */
export interface ScriptPathOutsideRootErrorOptions {
  /** The path as the caller gave it. */
  filePath: string;
  /** Why it counts as outside, e.g. "contains a .. segment". */
  reason: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A script path that does not stay inside the configured scripts root, lexically or after symlinks are resolved. Code `SCRIPT_PATH_OUTSIDE_ROOT`. */
export class ScriptPathOutsideRootError extends DccMcpError {
  override readonly name: string = "ScriptPathOutsideRootError";
  /** The path as the caller gave it. */
  readonly filePath: string;

  constructor(options: ScriptPathOutsideRootErrorOptions) {
    super({
      code: ScriptErrorCode.PathOutsideRoot,
      message: `Script file is outside the scripts root (${options.reason}): ${options.filePath}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
  }
}
