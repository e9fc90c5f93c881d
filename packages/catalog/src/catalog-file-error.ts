import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";

/** Options for {@link CatalogFileError}. */
export interface CatalogFileErrorOptions {
  /** The file that failed to load. */
  path: string;
  /** What went wrong. */
  message: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** Thrown by {@link DccApiCatalog.fromJsonFile} when the file cannot be read or parsed. */
export class CatalogFileError extends DccMcpError {
  override readonly name: string = "CatalogFileError";
  /** The file that failed to load. */
  readonly path: string;

  constructor(options: CatalogFileErrorOptions) {
    super({
      code: CatalogErrorCode.InvalidCatalogFile,
      message: `Cannot load catalog file ${options.path}: ${options.message}`,
      cause: options.cause,
    });
    this.path = options.path;
  }
}
