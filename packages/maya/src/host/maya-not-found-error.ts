/** Options for {@link MayaNotFoundError}. */
export interface MayaNotFoundErrorOptions {
  /** Every place that was looked at, in order. */
  searched: readonly string[];
}

/**
 * No `mayapy` was found: not the given path, not `MAYAPY_BIN`, not `$MAYA_LOCATION/bin/mayapy`,
 * not on `PATH`. The message says where it looked and how to point the adapter at Maya.
 */
export class MayaNotFoundError extends Error {
  override readonly name: string = "MayaNotFoundError";
  /** Stable code for callers that branch. */
  readonly code = "MAYA_NOT_FOUND" as const;
  /** Every place that was looked at, in order. */
  readonly searched: readonly string[];

  constructor(options: MayaNotFoundErrorOptions) {
    super(
      `mayapy (Maya 2023 or later) was not found; looked at: ${options.searched.join(", ")}. ` +
        "Install Autodesk Maya, then pass its mayapy (e.g. --maya /usr/autodesk/maya2025/bin/mayapy), " +
        "or set MAYAPY_BIN to it, or MAYA_LOCATION to the Maya folder, or put its bin folder on PATH.",
    );
    this.searched = options.searched;
  }
}
