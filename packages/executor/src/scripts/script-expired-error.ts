import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptExpiredError}. */
export interface ScriptExpiredErrorOptions {
  /** The script path. */
  filePath: string;
  /** When it expired, `YYYY-MM-DDTHH:MM:SSZ`. */
  expiresAt: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A materialized script whose TTL has passed. Code `SCRIPT_EXPIRED`. */
export class ScriptExpiredError extends DccMcpError {
  override readonly name: string = "ScriptExpiredError";
  /** The script path. */
  readonly filePath: string;
  /** When it expired. */
  readonly expiresAt: string;

  constructor(options: ScriptExpiredErrorOptions) {
    super({
      code: ScriptErrorCode.Expired,
      message: `Script file expired at ${options.expiresAt}: ${options.filePath}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
    this.expiresAt = options.expiresAt;
  }
}
