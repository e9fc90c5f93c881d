import { CommandError, type CommandErrorOptions } from "@dcc/executor";
import { LinkError, RemoteCallError } from "@dcc/link";

/** Makes the error a script's `dispatch` throws; {@link CommandError} itself by default. */
export type CreateCommandError = (options: CommandErrorOptions) => CommandError;

/** Options for {@link linkCommandError}. */
export interface LinkCommandErrorOptions {
  /** The command a script dispatched. */
  command: string;
  /** The DCC's name in messages, e.g. `"Blender"`. */
  displayName: string;
  /**
   * What happens next when the host is gone (a restart, or waiting for an attached DCC), added
   * to the message of a failure that {@link isHostGone} counts.
   */
  afterGone: string;
  /** Makes the error; {@link CommandError} by default (an adapter may use its own subclass). */
  createError?: CreateCommandError | undefined;
}

/**
 * A failure of a call over `@dcc/link` as the {@link CommandError} a script's `dispatch` throws.
 * An error the host's handler raised (`HandlerError(code, message, data)` on the Python side,
 * a {@link RemoteCallError} here) keeps the host's code, message, data and completion, so a
 * script catches `POLICY` or `NOT_FOUND` rather than `REMOTE_ERROR`. A link failure keeps the
 * link's code (`HOST_UNRESPONSIVE` becomes `HOST_GONE`: either way the host is being replaced)
 * and says what happened to the command: nothing (`not_started`), or unknown. Anything that is
 * not a `LinkError` is returned as it is.
 */
export function linkCommandError(error: unknown, options: LinkCommandErrorOptions): unknown {
  const create = options.createError ?? ((init) => new CommandError(init));
  const { command } = options;
  if (error instanceof RemoteCallError) {
    return create({
      command,
      code: error.remoteCode,
      message: error.remoteMessage,
      data: error.remoteData,
      completion: error.completion,
      cause: error,
    });
  }
  if (!(error instanceof LinkError)) return error;
  const gone = isHostGone(error);
  const happened =
    error.completion === "complete"
      ? ""
      : error.completion === "not_started"
        ? " The command did not run."
        : " Whether the command took effect is unknown.";
  const what =
    error.code === "HOST_GONE"
      ? `${options.displayName} exited while ${command} ran or waited.`
      : `${error.message.replace(/\.$/, "")}.`;
  return create({
    command,
    code: error.code === "HOST_UNRESPONSIVE" ? "HOST_GONE" : error.code,
    message: `${what}${happened}${gone ? ` ${options.afterGone}` : ""}`,
    completion: error.completion,
    cause: error,
  });
}

/**
 * Whether a call's failure means the host is no longer there: it exited, stopped answering, could
 * not be reached, or was ended for a call that would not stop. An error its handler raised is not.
 */
export function isHostGone(error: unknown): boolean {
  if (!(error instanceof LinkError) || error instanceof RemoteCallError) return false;
  return (
    error.code === "HOST_GONE" ||
    error.code === "HOST_UNRESPONSIVE" ||
    error.code === "CONNECT_FAILED" ||
    error.hostTerminated
  );
}
