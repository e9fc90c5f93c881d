import { mkdir, realpath } from "node:fs/promises";
import { delimiter, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DccLaunchError, type DccSandboxMode, searchExecutable } from "@dcc/link";
import type { LinkedLaunch } from "./linked-host.ts";

/** Options for {@link prepareLinkedLaunch}. */
export interface PrepareLinkedLaunchOptions {
  /** The DCC's name in errors, e.g. `"FreeCAD"`. */
  displayName: string;
  /**
   * The executable: a name looked up on `PATH` or a path, or several tried in order (e.g.
   * `["freecadcmd", "FreeCADCmd"]`).
   */
  executable: string | readonly string[];
  /**
   * An environment variable that, when set, names the executable instead (e.g.
   * `"FREECAD_BIN"`); it wins over `executable`.
   */
  executableVariable?: string | undefined;
  /**
   * Its arguments, e.g. `["-S", new URL("../python/toy_dcc/startup.py", import.meta.url)]` for
   * a plain `python3`. A `file:` URL is passed as its path, and its folder is shown read-only in
   * the sandbox (the start-up script's folder).
   */
  args?: readonly (string | URL)[] | undefined;
  /**
   * Folders of the adapter's own Python (the folder that holds its package, e.g. `python/`):
   * put on `PYTHONPATH`, after `@dcc/link`'s `dcc_link` (which `@dcc/link` always puts first),
   * and shown read-only in the sandbox.
   */
  pythonPath?: readonly (string | URL)[] | undefined;
  /**
   * The data folder: created when missing, resolved to its real path, named to the DCC in
   * `dataDirVariable` (what `serve(data_folder=DATA_DIR_ENV)` of `dcc_link` reads) and shown
   * writable in the sandbox.
   */
  dataDir?: string | undefined;
  /** The variable that names the data folder. Default `"DCC_DATA_DIR"`. */
  dataDirVariable?: string | undefined;
  /** Further environment variables (a `PYTHONPATH` here goes after `pythonPath`). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Further host paths the sandboxed DCC sees (its install is shown already). */
  sandboxPaths?: { readOnly?: readonly string[]; readWrite?: readonly string[] } | undefined;
  /** The OS sandbox (see `DccProcessOptions.sandbox` in `@dcc/link`); unset, `DCC_SANDBOX` decides, else `auto`. */
  sandbox?: DccSandboxMode | undefined;
  /** The environment to read `executableVariable` and `PATH` from. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The launch of a DCC behind `dcc_link`, for `createLinkedAdapter`'s `launch`: finds the
 * executable, creates and resolves the data folder, puts the adapter's Python on `PYTHONPATH`
 * and shows the sandbox (on by default where it works) what the DCC needs. Call it inside
 * `launch`, so a missing executable fails `start`.
 * @throws {DccLaunchError} `LAUNCH_FAILED` naming every place the executable was looked for,
 *   or a data folder that cannot be created.
 */
export async function prepareLinkedLaunch(
  options: PrepareLinkedLaunchOptions,
): Promise<LinkedLaunch> {
  const environment = options.environment ?? process.env;
  const variable = options.executableVariable;
  const fromVariable = variable === undefined ? undefined : environment[variable];
  const wanted = fromVariable ? [fromVariable] : [options.executable].flat();
  const searched: string[] = [];
  let command: string | undefined;
  for (const name of wanted) {
    const search = searchExecutable(name, { path: environment["PATH"] });
    searched.push(...search.searched);
    command = search.found;
    if (command !== undefined) break;
  }
  if (command === undefined) {
    const by = fromVariable ? ` (from ${variable})` : "";
    const hint = variable === undefined || fromVariable ? "" : `; set ${variable} to its path`;
    throw new DccLaunchError({
      code: "LAUNCH_FAILED",
      message: `${options.displayName} was not found${by}: looked for ${searched.join(", ")}${hint}`,
    });
  }
  const pythonPath = (options.pythonPath ?? []).map((folder) =>
    resolve(typeof folder === "string" ? folder : fileURLToPath(folder)),
  );
  const scripts = (options.args ?? []).filter((arg) => typeof arg !== "string");
  const args = (options.args ?? []).map((arg) =>
    typeof arg === "string" ? arg : fileURLToPath(arg),
  );
  const env: Record<string, string | undefined> = { ...options.env };
  const inherited = env["PYTHONPATH"];
  if (pythonPath.length > 0 || inherited !== undefined) {
    env["PYTHONPATH"] = [...pythonPath, ...(inherited ? [inherited] : [])].join(delimiter);
  }
  const readWrite = [...(options.sandboxPaths?.readWrite ?? [])];
  if (options.dataDir !== undefined) {
    let dataDir: string;
    try {
      await mkdir(options.dataDir, { recursive: true });
      dataDir = await realpath(resolve(options.dataDir));
    } catch (error) {
      throw new DccLaunchError({
        code: "LAUNCH_FAILED",
        message: `${options.displayName}'s data folder ${options.dataDir} cannot be used: ${(error as Error).message}`,
        cause: error,
      });
    }
    env[options.dataDirVariable ?? "DCC_DATA_DIR"] = dataDir;
    readWrite.push(dataDir);
  }
  return {
    command,
    args,
    env,
    // Unset, DCC_SANDBOX of this process decides (see @dcc/link).
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    sandboxPaths: {
      readOnly: [
        ...pythonPath,
        ...scripts.map((script) => dirname(fileURLToPath(script))),
        ...(options.sandboxPaths?.readOnly ?? []),
      ],
      readWrite,
    },
  };
}
