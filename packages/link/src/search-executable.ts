import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** Options for {@link searchExecutable}. */
export interface SearchExecutableOptions {
  /** The `PATH` to search a bare name on. Default `process.env.PATH`. */
  path?: string | undefined;
}

/** What {@link searchExecutable} found, and every place it looked (for a not-found error). */
export interface ExecutableSearch {
  /** The absolute path of the executable, or `undefined` when there is none. */
  readonly found: string | undefined;
  /** Each path tried in order, or `NAME on an empty PATH` when there was nothing to try. */
  readonly searched: readonly string[];
}

/**
 * Finds an executable file: `wanted` itself when it has a `/` or `\` (resolved against the
 * working folder), else the first `wanted` in a folder of `PATH`. Never throws, so each caller
 * raises its own not-found error with {@link ExecutableSearch.searched}.
 */
export function searchExecutable(
  wanted: string,
  options: SearchExecutableOptions = {},
): ExecutableSearch {
  if (wanted.includes("/") || wanted.includes("\\")) {
    const path = isAbsolute(wanted) ? wanted : resolve(wanted);
    return { found: isExecutable(path) ? path : undefined, searched: [path] };
  }
  const searched: string[] = [];
  for (const folder of (options.path ?? process.env["PATH"] ?? "").split(delimiter)) {
    if (folder === "") continue;
    const path = join(folder, wanted);
    searched.push(path);
    if (isExecutable(path)) return { found: path, searched };
  }
  if (searched.length === 0) searched.push(`${wanted} on an empty PATH`);
  return { found: undefined, searched };
}

/** A regular file we may execute (a folder of that name on `PATH` is not it). */
function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
