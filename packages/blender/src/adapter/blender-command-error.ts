import { CommandError } from "@dcc/executor";
import type { CallCompletion } from "@dcc/link";

/** Options for {@link BlenderCommandError}. */
export interface BlenderCommandErrorOptions {
  /** The command a script dispatched, e.g. `mesh.primitive_cube_add` or `data.get`. */
  command: string;
  /**
   * Blender's code (`POLICY`, `NOT_FOUND`, `POLL_FAILED`, `INVALID_ARGS`, `READ_ONLY`,
   * `INVALID_VALUE`, `INVALID_PATH`, `HANDLER_FAILED`, …) or the link's (`HOST_GONE`,
   * `LINK_TIMEOUT`, `CANCELLED`, `HOST_BUSY`).
   */
  code: string;
  /** What went wrong, in words a script's author can act on. */
  message: string;
  /** What Blender attached, e.g. `{ rule: "run-python" }` for a `POLICY` refusal. */
  data?: unknown;
  /** Whether the command ran: `complete`, `not_started`, or `unknown` when Blender died mid-call. */
  completion?: CallCompletion | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A Blender command failed. A script's `dispatch` throws it with the same `code`, `message`,
 * `completion` and `data`, so it can catch, say, `HOST_GONE` and go on after Blender restarted.
 */
export class BlenderCommandError extends CommandError {
  override readonly name: string = "BlenderCommandError";

  constructor(options: BlenderCommandErrorOptions) {
    super({
      command: options.command,
      code: options.code,
      message: options.message,
      completion: options.completion,
      data: options.data,
      cause: options.cause,
    });
  }
}
