// `viewport.screenshot` on the Node side: the host creates the capture file in a fresh private
// folder Blender can write to, tells Blender to write the image there, and reads it back only if
// it is still the regular file the host created, within a size bound and a deadline (see
// capture-file.ts). The bytes never pass through the link or the script, and Blender never
// chooses what the host reads.
import { HostImage, type HostImageMimeType } from "@dcc/executor";
import { BlenderCommandError } from "../blender-command-error.ts";
import { createCaptureFile, readCaptureFile, removeCaptureFile } from "./capture-file.ts";

/** Options for {@link captureImage}. */
export interface CaptureImageOptions {
  /** The command's name, for errors. */
  command: string;
  /** The script's keyword arguments. */
  args: Readonly<Record<string, unknown>>;
  /** Where the capture's folder is made: the launched Blender's session folder, else the host's temporary folder. */
  parent: string;
  /** Calls the command in Blender with the given parameters. */
  call: (params: Record<string, unknown>) => Promise<unknown>;
  /** The script's cancel and deadline. */
  signal?: AbortSignal | undefined;
}

interface CaptureAnswer {
  path?: unknown;
  mimeType?: unknown;
  width?: unknown;
  height?: unknown;
}

/**
 * Captures through Blender into a host-made file and returns it as a {@link HostImage}.
 * @throws {BlenderCommandError} `INVALID_ARGS` when the script names a path; `CAPTURE_REJECTED`
 *   when Blender's answer or the file it left is not what the host asked for; Blender's own
 *   errors (`CAPTURE_UNAVAILABLE`, `POLICY`, …) as they come.
 */
export async function captureImage(options: CaptureImageOptions): Promise<HostImage> {
  const { command, args } = options;
  if ("path" in args) {
    throw new BlenderCommandError({
      command,
      code: "INVALID_ARGS",
      message: `${command} takes no path: the host chooses where the capture is written`,
    });
  }
  const mimeType: HostImageMimeType = args["format"] === "jpeg" ? "image/jpeg" : "image/png";
  const file = await createCaptureFile(options.parent, mimeType === "image/jpeg" ? ".jpg" : ".png");
  try {
    const answer = ((await options.call({ ...args, path: file.path })) ?? {}) as CaptureAnswer;
    const reject = (problem: string): BlenderCommandError =>
      new BlenderCommandError({
        command,
        code: "CAPTURE_REJECTED",
        message: `${command}: the capture was refused: ${problem}`,
      });
    if (answer.path !== file.path) {
      throw reject(
        `Blender answered with the file ${JSON.stringify(answer.path)}, not the one the host gave it (${file.path})`,
      );
    }
    if (answer.mimeType !== mimeType) {
      throw reject(`Blender answered ${JSON.stringify(answer.mimeType)} for ${mimeType}`);
    }
    const data = await readCaptureFile(file, { command, signal: options.signal });
    try {
      return new HostImage({
        data,
        mimeType,
        width: answer.width as number,
        height: answer.height as number,
      });
    } catch (error) {
      throw reject((error as Error).message);
    }
  } finally {
    await removeCaptureFile(file);
  }
}
