import { LinkError, RemoteCallError } from "@dcc/link";
import { BlenderCommandError } from "../blender-command-error.ts";

/**
 * A link failure as the error a script's `dispatch` throws: Blender's own code and message for an
 * error Blender raised, else the link's code with what happened to the command and, when Blender
 * is gone, `afterGone` (what happens next: a restart, or waiting for an attached Blender).
 */
export function commandFailure(command: string, error: unknown, afterGone: string): unknown {
  if (error instanceof RemoteCallError) {
    return new BlenderCommandError({
      command,
      code: error.remoteCode,
      message: error.remoteMessage,
      data: error.remoteData,
      completion: error.completion,
      cause: error,
    });
  }
  if (!(error instanceof LinkError)) return error;
  const gone = isGone(error);
  const happened =
    error.completion === "complete"
      ? ""
      : error.completion === "not_started"
        ? " The command did not run."
        : " Whether the command took effect is unknown.";
  const what =
    error.code === "HOST_GONE"
      ? `Blender exited while ${command} ran or waited.`
      : `${error.message.replace(/\.$/, "")}.`;
  return new BlenderCommandError({
    command,
    code: error.code === "HOST_UNRESPONSIVE" ? "HOST_GONE" : error.code,
    message: `${what}${happened}${gone ? ` ${afterGone}` : ""}`,
    completion: error.completion,
    cause: error,
  });
}

/** Whether the failure means Blender is no longer there (it exited, or was ended). */
export function isGone(error: unknown): boolean {
  if (!(error instanceof LinkError) || error instanceof RemoteCallError) return false;
  return (
    error.code === "HOST_GONE" ||
    error.code === "HOST_UNRESPONSIVE" ||
    error.code === "CONNECT_FAILED" ||
    error.hostTerminated
  );
}
