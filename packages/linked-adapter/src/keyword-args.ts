import { CommandError } from "@dcc/executor";
import type { CreateCommandError } from "./link-command-error.ts";

/**
 * A command's arguments as the object of keyword arguments a linked command sends: an object as
 * it is, and none (`dispatch("x")`, or `null`) as `{}`. `@dcc/link` itself sends `params` as
 * given, so without this a command with no args reaches the host as `null`.
 * @throws {CommandError} `INVALID_ARGS` for an array or a scalar, naming the command.
 */
export function keywordArgs(
  command: string,
  args: unknown,
  createError?: CreateCommandError,
): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args === "object" && !Array.isArray(args)) return args as Record<string, unknown>;
  const init = {
    command,
    code: "INVALID_ARGS",
    message: `${command} takes one object of keyword arguments, e.g. dispatch("${command}", { … }); got ${Array.isArray(args) ? "an array" : typeof args}`,
  };
  throw createError === undefined ? new CommandError(init) : createError(init);
}
