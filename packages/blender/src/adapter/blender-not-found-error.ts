import { DccMcpError } from "@dcc/cancel";

/** Options for {@link BlenderNotFoundError}. */
export interface BlenderNotFoundErrorOptions {
  /** What was looked for: `blender`, or `xvfb-run` for a Blender under a virtual display. */
  executable: string;
  /** Where the adapter looked, in order. */
  searched: readonly string[];
}

const installHints: Readonly<Record<string, string>> = {
  blender:
    "Install it (Debian or Ubuntu: apt-get install -y blender; elsewhere: https://www.blender.org/download/), " +
    "then put it on PATH, set BLENDER_BIN to the executable, or pass the blenderBin option.",
  "xvfb-run": "Install it (Debian or Ubuntu: apt-get install -y xvfb), or run Blender headless.",
};

/**
 * An executable the Blender adapter needs was not found (code `BLENDER_NOT_FOUND`). The message
 * names where the adapter looked and how to install it, so a server that cannot start says what
 * to do.
 */
export class BlenderNotFoundError extends DccMcpError {
  override readonly name: string = "BlenderNotFoundError";
  /** What was looked for. */
  readonly executable: string;
  /** Where the adapter looked, in order. */
  readonly searched: readonly string[];

  constructor(options: BlenderNotFoundErrorOptions) {
    const hint = installHints[options.executable] ?? installHints["blender"];
    super({
      code: "BLENDER_NOT_FOUND",
      message: `${options.executable} was not found (looked at: ${options.searched.join(", ")}). ${hint}`,
    });
    this.executable = options.executable;
    this.searched = options.searched;
  }
}
