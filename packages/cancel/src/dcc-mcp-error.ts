import { brandedInstanceof, hasBrand, setBrand } from "./internal/brand.ts";

/** Options for {@link DccMcpError}. */
export interface DccMcpErrorOptions {
  /** Human-readable message. */
  message: string;
  /** Stable machine-readable code callers can branch on. */
  code: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

const marker: unique symbol = Symbol.for("@dcc/cancel/DccMcpError");

/**
 * Base class of every error the `@dcc` packages throw on purpose. Each subclass carries a stable
 * string `code`. {@link DccMcpError.is} and `instanceof DccMcpError` recognise instances even when
 * two copies of the package are loaded in one process.
 */
export class DccMcpError extends Error {
  override readonly name: string = "DccMcpError";
  /** Stable machine-readable code. */
  readonly code: string;

  constructor(options: DccMcpErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    // A symbol from the global registry, so a second copy of this package recognises it.
    setBrand(this, marker);
  }

  static {
    brandedInstanceof(DccMcpError, marker);
  }

  /** True for any {@link DccMcpError}, including one from another copy of this package. */
  static is(value: unknown): value is DccMcpError {
    return hasBrand(value, marker);
  }
}
