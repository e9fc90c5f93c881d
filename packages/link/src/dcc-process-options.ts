import type { LinkClientOptions } from "./link-client-options.ts";

/** Options for {@link DccProcess}. */
export interface DccProcessOptions {
  /** The executable, e.g. `blender` or `python3`. */
  command: string;
  /** Its arguments. The token is never put here: it goes through the environment or a file. */
  args?: readonly string[] | undefined;
  /** Extra environment variables (on top of this process's own, minus any `DCC_LINK_*`). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Working directory. */
  cwd?: string | undefined;
  /** `unix` (default): a socket in the private session folder; `tcp`: 127.0.0.1, any port. */
  transport?: "unix" | "tcp" | undefined;
  /** How the token reaches the host: `env` (default, `DCC_LINK_TOKEN`) or `file` (a 0600 file
   * named by `DCC_LINK_TOKEN_FILE`, deleted by the host once read). */
  tokenVia?: "env" | "file" | undefined;
  /** Where session folders are created. Default `os.tmpdir()`. */
  baseDir?: string | undefined;
  /** Bound on spawn-to-ready-line. Default 60000 ms (a loaded machine starts Blender in 5 s). */
  readyTimeoutMs?: number | undefined;
  /** Run the host as the leader of its own process group and end the whole group: for a
   * wrapper such as `xvfb-run`, whose X server would outlive it otherwise. Default false. */
  processGroup?: boolean | undefined;
  /** How long the host may take to exit after SIGTERM before SIGKILL. Default 5000 ms. */
  terminateGraceMs?: number | undefined;
  /** Frame limit for both sides, in bytes. Default 16 MiB. */
  maxFrameBytes?: number | undefined;
  /** How long the host waits for a connection's token. Default 5000 ms. */
  authTimeoutMs?: number | undefined;
  /** Link settings (the endpoint and token come from the launch). */
  link?: Omit<LinkClientOptions, "endpoint" | "token" | "maxFrameBytes"> | undefined;
  /** What to do when the heartbeat finds the host unresponsive: `terminate` (default) or
   * `keep` (the link only reports it). */
  onUnresponsive?: "terminate" | "keep" | undefined;
  /** Sees everything the host writes. */
  onOutput?: ((text: string, stream: "stdout" | "stderr") => void) | undefined;
  /** How much output to keep for error messages. Default 16384 characters. */
  outputTailChars?: number | undefined;
  /**
   * The OS sandbox around the process (Linux, bubblewrap): `auto` (default) runs it sandboxed
   * where that works and, where it cannot (not Linux, no `bwrap`, no user namespaces), says so
   * once in a process warning (`DCC_SANDBOX_OFF`) and runs it as before; `on` fails the start
   * (`SANDBOX_UNAVAILABLE`) rather than run it unsandboxed; `off` never sandboxes. Unset, the
   * environment variable `DCC_SANDBOX` (same values) decides, else `auto`. See
   * {@link DccSandboxPaths} for what the process sees.
   */
  sandbox?: DccSandboxMode | undefined;
  /** Host paths the sandboxed process needs beyond the system, its install and the link. */
  sandboxPaths?: DccSandboxPaths | undefined;
  /** The bubblewrap executable. Default: `bwrap` on `PATH`, else `/usr/bin/bwrap`. */
  sandboxProgram?: string | undefined;
}

/** Whether a launched process runs in the OS sandbox (see {@link DccProcessOptions.sandbox}). */
export type DccSandboxMode = "auto" | "on" | "off";

/**
 * What a sandboxed process sees of the host besides the system (`/usr`, the loader and font
 * settings of `/etc`, a minimal `/dev`, its own `/proc`), the install folder of its executable,
 * the link's Python side and its session folder (writable). Every other host path is absent;
 * writes elsewhere land in a tmpfs that goes with the process. Missing paths are skipped.
 */
export interface DccSandboxPaths {
  /** Shown read-only, at the same place: scripts, add-ons, the DCC's own files. */
  readOnly?: readonly string[] | undefined;
  /** Shown writable, at the same place: a data folder. */
  readWrite?: readonly string[] | undefined;
}

/** Where a {@link DccProcess} is in its life. */
export type DccProcessState = "stopped" | "starting" | "running" | "closed";
