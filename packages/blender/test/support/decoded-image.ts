import type { ExecuteResult } from "@dcc/executor";
import { decode } from "fast-png";

/** An image of a result, decoded. */
export interface DecodedImage {
  mimeType: string;
  width: number;
  height: number;
  /** The pixels, `channels` values each. */
  pixels: Uint8Array;
  channels: number;
}

/** Decodes a base64 PNG. */
export function decodePng(base64: string): DecodedImage {
  const png = decode(Buffer.from(base64, "base64"));
  return {
    mimeType: "image/png",
    width: png.width,
    height: png.height,
    pixels: png.data as Uint8Array,
    channels: png.channels,
  };
}

/** The PNG images of a successful result, decoded, in order. */
export function resultImages(result: ExecuteResult): DecodedImage[] {
  if (!result.success) throw new Error(`the script failed: ${result.error}`);
  return (result.images ?? []).map((image) => {
    if (image.mimeType !== "image/png") throw new Error(`not a PNG: ${image.mimeType}`);
    return decodePng(image.data);
  });
}

/** How many different pixel values an image has (1 for a blank one). */
export function distinctPixels(image: DecodedImage): number {
  const seen = new Set<string>();
  for (let index = 0; index < image.pixels.length; index += image.channels) {
    seen.add(image.pixels.subarray(index, index + image.channels).join(","));
  }
  return seen.size;
}
