// `viewport.screenshot` on the Node side: Blender writes the image to a private temporary file and
// answers with its path; the file is read, removed, and returned as a HostImage, so the bytes
// never pass through the link or the script.
import { readFile, unlink } from "node:fs/promises";
import { basename } from "node:path";
import { CommandError, HostImage, type HostImageMimeType } from "@dcc/executor";

interface CaptureAnswer {
  path: string;
  mimeType: HostImageMimeType;
  width: number;
  height: number;
}

/** Turns Blender's answer to `viewport.screenshot` into a {@link HostImage}. */
export async function capturedImage(command: string, answer: unknown): Promise<HostImage> {
  const found = answer as Partial<CaptureAnswer> | null;
  const path = found?.path;
  // Only the file Blender's capture made: a private temporary file of that name.
  if (typeof path !== "string" || !basename(path).startsWith("dcc-capture-")) {
    throw new CommandError({
      command,
      code: "COMMAND_FAILED",
      message: `${command}: Blender gave no capture file`,
    });
  }
  try {
    const data = await readFile(path);
    return new HostImage({
      data,
      mimeType: found?.mimeType as HostImageMimeType,
      width: found?.width as number,
      height: found?.height as number,
    });
  } catch (error) {
    throw new CommandError({
      command,
      code: "COMMAND_FAILED",
      message: `${command}: the capture could not be read: ${(error as Error).message}`,
      cause: error,
    });
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
