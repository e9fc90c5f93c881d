import { DccMcpError } from "@dcc/cancel";

/** Stable codes of {@link SceneError}; scripts see them as `error.code`. */
export const SceneErrorCode = {
  /** A named node or attribute does not exist. */
  noObject: "NO_OBJECT",
  /** A flag the command does not know (or the simulation does not support). */
  invalidFlag: "INVALID_FLAG",
  /** A positional argument or flag value has the wrong shape or is out of range. */
  invalidArgument: "INVALID_ARGUMENT",
  /** The command exists in Maya's catalog but the simulated scene does not implement it. */
  notImplemented: "NOT_IMPLEMENTED",
  /** The operation is not allowed in the current state (locked, connected, unsaved changes…). */
  invalidState: "INVALID_STATE",
  /** A scene file could not be read or written, or its path escapes the data folder. */
  fileError: "FILE_ERROR",
} as const;

/** One of the {@link SceneErrorCode} values. */
export type SceneErrorCodeValue = (typeof SceneErrorCode)[keyof typeof SceneErrorCode];

/** Options for {@link SceneError}. */
export interface SceneErrorOptions {
  /** Stable machine-readable code. */
  code: SceneErrorCodeValue;
  /** Human-readable message, in Maya's wording where we know it. */
  message: string;
  /** The command that failed, when known. */
  command?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** An error thrown by a simulated Maya command. */
export class SceneError extends DccMcpError {
  override readonly name: string = "SceneError";
  /** The command that failed, when known. */
  readonly command: string | undefined;

  constructor(options: SceneErrorOptions) {
    super(
      options.cause === undefined
        ? { code: options.code, message: options.message }
        : { code: options.code, message: options.message, cause: options.cause },
    );
    this.command = options.command;
  }
}

/** Maya's error for a name that matches nothing. */
export function noObject(name: string): SceneError {
  return new SceneError({
    code: SceneErrorCode.noObject,
    message: `No object matches name: ${name}`,
  });
}

/** An error for a bad argument value. */
export function invalidArgument(message: string): SceneError {
  return new SceneError({ code: SceneErrorCode.invalidArgument, message });
}

/** An error for an operation the current state forbids. */
export function invalidState(message: string): SceneError {
  return new SceneError({ code: SceneErrorCode.invalidState, message });
}
