import { DccMcpError } from "@dcc/cancel";
import { CatalogErrorCode } from "./catalog-error-code.ts";

/** Options for {@link CommandRecordError}. */
export interface CommandRecordErrorOptions {
  /** What is wrong with the record. */
  message: string;
  /** 0-based position of the record in its source list or file, when known. */
  index?: number;
}

/** Thrown when a command record is not an object or its `name` is not a string. */
export class CommandRecordError extends DccMcpError {
  override readonly name: string = "CommandRecordError";
  /** 0-based position of the record in its source, when known. */
  readonly index: number | undefined;

  constructor(options: CommandRecordErrorOptions) {
    super({ code: CatalogErrorCode.InvalidCommandRecord, message: options.message });
    this.index = options.index;
  }
}
