/** Options for {@link CommandSpecError}. */
export interface CommandSpecErrorOptions {
  /** What is wrong, naming the field. */
  message: string;
  /** The spec file, when the specs came from one. */
  file?: string | undefined;
  /** 0-based position of the spec in its list, when known. */
  index?: number | undefined;
  /** The underlying error (a read or JSON error). */
  cause?: unknown;
}

/** A command spec (or its file) is malformed: the message names the file, the entry and the field. */
export class CommandSpecError extends Error {
  override readonly name: string = "CommandSpecError";
  /** Always `"INVALID_COMMAND_SPEC"`. */
  readonly code = "INVALID_COMMAND_SPEC" as const;
  /** The spec file, when known. */
  readonly file: string | undefined;
  /** 0-based position of the spec, when known. */
  readonly index: number | undefined;

  constructor(options: CommandSpecErrorOptions) {
    super(options.message, { cause: options.cause });
    this.file = options.file;
    this.index = options.index;
  }
}
