import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";

/** Options for {@link CatalogLineError}. */
export interface CatalogLineErrorOptions {
  /** 1-based line number, counting lines as Python's `str.splitlines` does. */
  lineNumber: number;
  /** The offending line, stripped. */
  line: string;
}

/**
 * Thrown when a line of catalog text yields no usable command name: the part before the first
 * `" - "` contains no letter, digit or underscore (for example `--- - section`).
 */
export class CatalogLineError extends DccMcpError {
  override readonly name: string = "CatalogLineError";
  /** 1-based line number of the offending line. */
  readonly lineNumber: number;
  /** The offending line, stripped. */
  readonly line: string;

  constructor(options: CatalogLineErrorOptions) {
    super({
      code: CatalogErrorCode.InvalidCatalogLine,
      message: `Catalog text line ${options.lineNumber} has no usable command name: ${JSON.stringify(options.line)}`,
    });
    this.lineNumber = options.lineNumber;
    this.line = options.line;
  }
}
