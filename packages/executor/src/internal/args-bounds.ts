// The bounds on a command's arguments, checked in the sandbox thread as the guest calls
// `dispatch`, before the call takes any path to the host (the main thread or a dispatch lane):
// so every adapter refuses the same arguments the same way, before anything is sent.

import { nestsDeeperThan } from "@dcc/link/json-nesting";
import { commandErrorCodes } from "../command-error-code.ts";
import { errorReply } from "./reply-text.ts";
import type { RunLimits } from "./sandbox-types.ts";

/**
 * The reply refusing `argsJson` for `command` when it is over `maxArgsChars` characters or
 * nests deeper than `maxArgsDepth` levels (`INVALID_ARGS`, naming the limit), else undefined.
 */
export function argsRefusal(
  command: string,
  argsJson: string,
  limits: Pick<RunLimits, "maxArgsChars" | "maxArgsDepth">,
): string | undefined {
  let message: string | undefined;
  if (argsJson.length > limits.maxArgsChars) {
    message = `The arguments of ${command} are ${argsJson.length} characters of JSON, over the limit of ${limits.maxArgsChars} characters (limits.maxArgsChars); send less per call`;
  } else if (nestsDeeperThan(argsJson, limits.maxArgsDepth)) {
    message = `The arguments of ${command} nest deeper than ${limits.maxArgsDepth} levels, the limit for command arguments (limits.maxArgsDepth)`;
  }
  if (message === undefined) return undefined;
  return errorReply(command, commandErrorCodes.invalidArgs, message, {
    completion: "not_started",
  });
}
