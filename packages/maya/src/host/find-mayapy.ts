import { join } from "node:path";
import { searchExecutable } from "@dcc/link";
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
  const explicit = options.mayapy ?? env["MAYAPY_BIN"];
  if (explicit !== undefined && explicit !== "") {
    const { found, searched } = searchExecutable(explicit, { path: env["PATH"] ?? "" });
    if (found !== undefined) return found;
    throw new MayaNotFoundError({ searched });
  }
  const searched: string[] = [];
  const location = env["MAYA_LOCATION"];
  if (location !== undefined && location !== "") {
    const inLocation = searchExecutable(join(location, "bin", name));
    if (inLocation.found !== undefined) return inLocation.found;
    searched.push(...inLocation.searched);
  }
  const onPath = searchExecutable(name, { path: env["PATH"] ?? "" });
  if (onPath.found !== undefined) return onPath.found;
  throw new MayaNotFoundError({ searched: [...searched, ...onPath.searched] });
}
