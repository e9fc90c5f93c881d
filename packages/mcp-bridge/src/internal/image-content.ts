// Images in an envelope (`images: [{ id, mimeType, width, height, data }]`, as the executor
// attaches them) leave the JSON as MCP `image` content; the JSON keeps each one's metadata.
import type { BridgeResult } from "../bridge-executor.ts";

/** An MCP `image` content block. */
export interface ImageBlock {
  type: "image";
  data: string;
  mimeType: string;
}

interface CarriedImage {
  id: string;
  mimeType: string;
  width?: number;
  height?: number;
  data: string;
}

function carriedImages(result: BridgeResult): CarriedImage[] | undefined {
  const images = result["images"];
  if (!Array.isArray(images) || images.length === 0) return undefined;
  const valid = images.every(
    (image) =>
      typeof image === "object" &&
      image !== null &&
      typeof (image as CarriedImage).data === "string" &&
      typeof (image as CarriedImage).mimeType === "string",
  );
  return valid ? (images as CarriedImage[]) : undefined;
}

/**
 * The envelope without image bytes (each image's `id`, `mimeType`, `width`, `height` stay, so
 * the output's `{ $image: id }` references can be matched), and the images as content blocks in
 * the same order.
 */
export function splitImages(result: BridgeResult): {
  envelope: BridgeResult;
  blocks: ImageBlock[];
} {
  const images = carriedImages(result);
  if (images === undefined) return { envelope: result, blocks: [] };
  return {
    envelope: { ...result, images: images.map(({ data: _data, ...facts }) => facts) },
    blocks: images.map((image) => ({ type: "image", data: image.data, mimeType: image.mimeType })),
  };
}

/**
 * Runs `shape` on the envelope without its image bytes and puts the images back: the executor
 * bounds images by count and bytes, so the JSON budget applies to the rest only.
 */
export function shapeBesideImages(
  result: BridgeResult,
  shape: (result: BridgeResult) => BridgeResult,
): BridgeResult {
  if (carriedImages(result) === undefined) return shape(result);
  const { images, ...rest } = result;
  const shaped = shape(rest as BridgeResult);
  return shaped === rest ? result : { ...shaped, images };
}
