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
}

/** Where a {@link DccProcess} is in its life. */
export type DccProcessState = "stopped" | "starting" | "running" | "closed";
