import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
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
  const searched: string[] = [];
  if (wanted.includes("/")) {
    const path = isAbsolute(wanted) ? wanted : resolve(wanted);
    searched.push(path);
    if (isExecutable(path)) return path;
    throw new BlenderNotFoundError({ executable, searched });
  }
  for (const folder of (env["PATH"] ?? "").split(delimiter)) {
    if (folder === "") continue;
    const path = join(folder, wanted);
    searched.push(path);
    if (isExecutable(path)) return path;
  }
  if (searched.length === 0) searched.push(`${wanted} on an empty PATH`);
  throw new BlenderNotFoundError({ executable, searched });
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
