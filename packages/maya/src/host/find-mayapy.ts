import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { MayaNotFoundError } from "./maya-not-found-error.ts";

/** Options for {@link findMayapy}. */
export interface FindMayapyOptions {
  /** An explicit `mayapy` (a path, or a name looked up on `PATH`). Wins over everything else. */
  mayapy?: string | undefined;
  /** Where `MAYAPY_BIN`, `MAYA_LOCATION` and `PATH` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The `mayapy` to launch: `mayapy`, else `MAYAPY_BIN`, else `$MAYA_LOCATION/bin/mayapy`
 * (`mayapy.exe` on Windows), else `mayapy` on `PATH`.
 * @throws {MayaNotFoundError} naming every place it looked and how to point at Maya.
 */
export function findMayapy(options: FindMayapyOptions = {}): string {
  const env = options.env ?? process.env;
  const name = process.platform === "win32" ? "mayapy.exe" : "mayapy";
  const searched: string[] = [];
  const explicit = options.mayapy ?? env["MAYAPY_BIN"];
  if (explicit !== undefined && explicit !== "") {
    if (!explicit.includes("/") && !explicit.includes("\\")) return onPath(explicit, env, searched);
    const path = isAbsolute(explicit) ? explicit : resolve(explicit);
    searched.push(path);
    if (isExecutable(path)) return path;
    throw new MayaNotFoundError({ searched });
  }
  const location = env["MAYA_LOCATION"];
  if (location !== undefined && location !== "") {
    const path = join(location, "bin", name);
    searched.push(path);
    if (isExecutable(path)) return path;
  }
  return onPath(name, env, searched);
}

function onPath(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
  searched: string[],
): string {
  for (const folder of (env["PATH"] ?? "").split(delimiter)) {
    if (folder === "") continue;
    const path = join(folder, name);
    searched.push(path);
    if (isExecutable(path)) return path;
  }
  if (searched.length === 0) searched.push(`${name} on an empty PATH`);
  throw new MayaNotFoundError({ searched });
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
