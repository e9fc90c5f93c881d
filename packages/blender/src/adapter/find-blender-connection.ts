import { readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DccMcpError } from "@dcc/cancel";

/** Options for {@link findBlenderConnection}. */
export interface FindBlenderConnectionOptions {
  /** Where `DCC_BLENDER_LINK_DIR`, `XDG_RUNTIME_DIR` and `TMPDIR` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Finds the `connection.json` of a running Blender with the `dcc_blender_link` add-on, where the
 * add-on writes it by default: `$DCC_BLENDER_LINK_DIR/connection.json` when that is set, else the
 * newest `dcc-blender-*` folder of this user under `XDG_RUNTIME_DIR` or the temporary folder
 * whose Blender (the file's `pid`) is still running.
 *
 * @returns The file's absolute path.
 * @throws {DccMcpError} code `BLENDER_CONNECTION_NOT_FOUND` naming every place it looked.
 */
export async function findBlenderConnection(
  options: FindBlenderConnectionOptions = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const chosen = env["DCC_BLENDER_LINK_DIR"];
  const looked: string[] = [];
  if (chosen !== undefined && chosen !== "") {
    const file = join(chosen.replace(/^~(?=$|\/)/, env["HOME"] ?? "~"), "connection.json");
    looked.push(file);
    if ((await liveConnection(file)) !== undefined) return file;
  } else {
    const bases = [env["XDG_RUNTIME_DIR"], env["TMPDIR"] ?? tmpdir()].filter(
      (base): base is string => base !== undefined && base !== "",
    );
    let best: { file: string; time: number } | undefined;
    for (const base of new Set(bases)) {
      looked.push(join(base, "dcc-blender-*", "connection.json"));
      let names: string[];
      try {
        names = await readdir(base);
      } catch {
        continue;
      }
      for (const name of names.filter((entry) => entry.startsWith("dcc-blender-"))) {
        const file = join(base, name, "connection.json");
        const time = await liveConnection(file);
        if (time !== undefined && (best === undefined || time > best.time)) best = { file, time };
      }
    }
    if (best !== undefined) return best.file;
  }
  throw new DccMcpError({
    code: "BLENDER_CONNECTION_NOT_FOUND",
    message: `No running Blender with the DCC Link add-on was found (looked at: ${looked.join(", ")}). Start Blender with the add-on enabled (blender --addons dcc_blender_link), or give the connection file it prints.`,
  });
}

/** The file's modification time when it is this user's and its Blender runs; else undefined. */
async function liveConnection(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    if (typeof process.getuid === "function" && info.uid !== process.getuid()) return undefined;
    const pid = (JSON.parse(await readFile(file, "utf8")) as { pid?: unknown }).pid;
    if (typeof pid === "number") process.kill(pid, 0);
    return info.mtimeMs;
  } catch {
    return undefined;
  }
}
