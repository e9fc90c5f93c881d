import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DccProcessOptions, DccSandboxMode } from "@dcc/link";
import { findBlender, findExecutable } from "./find-blender.ts";

/**
 * How Blender runs: `none` (default) is `blender -b`, headless, its start-up script serving the
 * link in a blocking loop; `xvfb` runs Blender's window manager under a virtual X server
 * (`xvfb-run`), serving the link from `bpy.app.timers` as the add-on does in an interactive
 * Blender; `display` does the same on the current `DISPLAY`, for someone watching.
 */
export type BlenderWindow = "none" | "xvfb" | "display";

/** The host's policy: what it refuses, configured on the server, never by a tool argument. */
export interface BlenderPolicy {
  /**
   * Rules to lift, by the name a `POLICY` error gives (e.g. `"run-python"`). Default: none, so
   * every command that runs code or reaches outside Blender is refused.
   */
  allow?: readonly string[] | undefined;
}

/** What {@link blenderLaunch} builds a launch from. */
export interface BlenderLaunchSettings {
  /** Executable override (see `findBlender`). */
  blenderBin?: string | undefined;
  /** The data folder, absolute and existing. */
  dataDir: string;
  /** How Blender runs. */
  window: BlenderWindow;
  /** The host's policy. */
  policy?: BlenderPolicy | undefined;
  /**
   * A private folder for the recovery copy of the scene (`blender.recovery.save` and `open`),
   * writable inside the OS sandbox. None: no copies are kept.
   */
  recoveryDir?: string | undefined;
  /** The environment to find executables in. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The OS sandbox around Blender (see `@dcc/link`'s `DccProcessOptions.sandbox`). Unset, the
   * launch leaves it unset too, so `@dcc/link` decides by `DCC_SANDBOX`, else `auto`.
   */
  sandbox?: DccSandboxMode | undefined;
}

/** What of a {@link DccProcessOptions} a Blender launch sets. */
export type BlenderLaunch = Pick<
  DccProcessOptions,
  "command" | "args" | "env" | "processGroup" | "sandbox" | "sandboxPaths"
>;

/** Absolute path of the start-up script Blender runs (beside `src/` and `dist/`). */
export function blenderStartupScript(): string {
  return fileURLToPath(new URL("../../python/dcc_blender/startup.py", import.meta.url));
}

/**
 * What the sandboxed Blender sees besides the system and its install: this package's Python
 * (read-only), the data folder and the recovery folder (writable) and, on a real display, the X server's socket folder
 * and authority file (read-only).
 */
function sandboxPaths(
  settings: BlenderLaunchSettings,
): NonNullable<DccProcessOptions["sandboxPaths"]> {
  const readOnly = [dirname(blenderStartupScript())];
  if (settings.window === "display") {
    const env = settings.env ?? process.env;
    readOnly.push("/tmp/.X11-unix", env["XAUTHORITY"] ?? join(homedir(), ".Xauthority"));
  }
  const readWrite = [settings.dataDir];
  if (settings.recoveryDir !== undefined) readWrite.push(settings.recoveryDir);
  return { readOnly, readWrite };
}

/**
 * The command, arguments and environment of one Blender launch. The start-up file is the
 * factory one and auto-run scripts are off (`--disable-autoexec`), so a user's preferences or a
 * .blend file's scripts never run. In the OS sandbox (by default where it works), Blender sees
 * the system, its install, this package's Python and the data folder, and nothing else.
 * @throws {BlenderNotFoundError} when Blender (or `xvfb-run` for `xvfb`) is missing.
 */
export function blenderLaunch(settings: BlenderLaunchSettings): BlenderLaunch {
  // Unset stays unset: `@dcc/link` owns the rule (the option, else DCC_SANDBOX, else auto).
  const sandbox = {
    ...(settings.sandbox === undefined ? {} : { sandbox: settings.sandbox }),
    sandboxPaths: sandboxPaths(settings),
  };
  const blender = findBlender({ blenderBin: settings.blenderBin, env: settings.env });
  const common = ["--factory-startup", "--disable-autoexec", "--python-exit-code", "1"];
  const script = ["--python", blenderStartupScript()];
  const env = {
    DCC_BLENDER_DATA_DIR: settings.dataDir,
    DCC_BLENDER_POLICY: JSON.stringify({ allow: [...(settings.policy?.allow ?? [])] }),
    DCC_BLENDER_LOOP: settings.window === "none" ? "blocking" : "pump",
    ...(settings.recoveryDir === undefined
      ? {}
      : { DCC_BLENDER_RECOVERY_DIR: settings.recoveryDir }),
  };
  if (settings.window === "none") {
    const args = ["-b", ...common, ...script];
    return { command: blender, args, env, processGroup: false, ...sandbox };
  }
  const gui = [...common, "-noaudio", ...script];
  if (settings.window === "display") {
    return { command: blender, args: gui, env, processGroup: false, ...sandbox };
  }
  const xvfbRun = findExecutable("xvfb-run", settings.env ?? process.env, "xvfb-run");
  // The X authority file goes in the session's TMPDIR by name: left to itself, xvfb-run makes a
  // folder there and, finding it gone when Blender's watchdog has removed the session, exits
  // before it stops the X server.
  const wrapper = 'exec "$0" -a -f "$TMPDIR/Xauthority" -s "-screen 0 1280x720x24" "$@"';
  return {
    command: "/bin/sh",
    args: ["-c", wrapper, xvfbRun, blender, ...gui],
    env,
    // xvfb-run's X server would outlive it: the whole group is ended.
    processGroup: true,
    ...sandbox,
  };
}
