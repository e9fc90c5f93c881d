// The answer of a spec marked `image`: what `image_result` in `dcc_link` sends (the bytes
// base64-encoded, with their format and size), turned into the executor's HostImage.
import { type CommandError, HostImage } from "@dcc/executor";
import type { CreateCommandError } from "../link-command-error.ts";

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The {@link HostImage} an image command answered.
 * @throws {CommandError} `INVALID_IMAGE` (completion `complete`: the command ran) naming what is
 *   wrong with the answer.
 */
export function imageAnswer(
  command: string,
  answer: unknown,
  create: CreateCommandError,
): HostImage {
  const fail = (problem: string, cause?: unknown): CommandError =>
    create({
      command,
      code: "INVALID_IMAGE",
      message: `${command} answered no image: ${problem} (an image command's handler returns image_result(png_bytes) from dcc_link)`,
      completion: "complete",
      ...(cause === undefined ? {} : { cause }),
    });
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw fail(`got ${JSON.stringify(answer)?.slice(0, 80) ?? String(answer)}`);
  }
  const { mimeType, width, height, data } = answer as Record<string, unknown>;
  if (typeof data !== "string" || data.length % 4 !== 0 || !base64.test(data)) {
    throw fail("its data is not base64 text");
  }
  if (mimeType !== "image/png" && mimeType !== "image/jpeg") {
    throw fail(`its mimeType is ${JSON.stringify(mimeType)}, not image/png or image/jpeg`);
  }
  try {
    return new HostImage({
      data: new Uint8Array(Buffer.from(data, "base64")),
      mimeType,
      width: width as number,
      height: height as number,
    });
  } catch (error) {
    throw fail((error as Error).message, error);
  }
}
