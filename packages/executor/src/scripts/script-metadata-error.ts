import { DccMcpError } from "@dcc/cancel";
import { ScriptErrorCode } from "./script-error-code.ts";

/** Options for {@link ScriptMetadataError}. */
export interface ScriptMetadataErrorOptions {
  /** The script path. */
  filePath: string;
  /** What is wrong with the sidecar. */
  detail: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** A sidecar (`<file>.meta.json`) that exists but cannot be trusted; it fails closed. Code `SCRIPT_METADATA_INVALID`. */
export class ScriptMetadataError extends DccMcpError {
  override readonly name: string = "ScriptMetadataError";
  /** The script path. */
  readonly filePath: string;

  constructor(options: ScriptMetadataErrorOptions) {
    super({
      code: ScriptErrorCode.MetadataInvalid,
      message: `Invalid sidecar for ${options.filePath}: ${options.detail}`,
      cause: options.cause,
    });
    this.filePath = options.filePath;
  }
}
