import { searchExecutable } from "@dcc/link";
import { BlenderNotFoundError } from "./blender-not-found-error.ts";

/** Options for {@link findBlender}. */
export interface FindBlenderOptions {
  /** An explicit executable (path, or a name looked up on PATH). Wins over everything else. */
  blenderBin?: string | undefined;
  /** The environment to read `BLENDER_BIN` and `PATH` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The Blender executable to launch: `blenderBin`, else `BLENDER_BIN`, else `blender` on `PATH`.
 * @throws {BlenderNotFoundError} naming where it looked and how to install Blender.
 */
export function findBlender(options: FindBlenderOptions = {}): string {
  const env = options.env ?? process.env;
  return findExecutable(options.blenderBin ?? env["BLENDER_BIN"] ?? "blender", env, "blender");
}

/** `wanted` as a path, or looked up on `env.PATH`. @throws {BlenderNotFoundError} */
export function findExecutable(
  wanted: string,
  env: Readonly<Record<string, string | undefined>>,
  executable: string,
): string {
  const { found, searched } = searchExecutable(wanted, { path: env["PATH"] ?? "" });
  if (found !== undefined) return found;
  throw new BlenderNotFoundError({ executable, searched });
}
