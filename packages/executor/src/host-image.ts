import { DccMcpError } from "@dcc/cancel";

/** The image formats a {@link HostImage} may hold: what MCP `image` content carries everywhere. */
export type HostImageMimeType = "image/png" | "image/jpeg";

/** Options for {@link HostImage}. */
export interface HostImageOptions {
  /** The encoded image file (PNG or JPEG bytes). */
  data: Uint8Array;
  /** Its format. */
  mimeType: HostImageMimeType;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

/**
 * What a script receives in place of a {@link HostImage}: a small marked reference. Returned
 * anywhere in the script's value, it brings the image into the result (see
 * `ExecuteSuccess.images`); the bytes never enter the sandbox.
 */
export interface ImageReference {
  /** The image's id in this execution, e.g. `"img-1"`. */
  $image: string;
  mimeType: HostImageMimeType;
  width: number;
  height: number;
  /** Size of the encoded image in bytes. */
  bytes: number;
}

const marker = Symbol.for("@dcc/executor/HostImage");
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * An image a host command returns (a viewport capture, a render): the bytes stay on the host
 * side, and the script sees an {@link ImageReference}. Return it from a handler alone or inside
 * other data.
 *
 * @throws {DccMcpError} code `INVALID_IMAGE` when the bytes do not start as the format says, or
 *   the size is not a positive integer.
 */
export class HostImage {
  /** The encoded bytes. */
  readonly data: Uint8Array;
  readonly mimeType: HostImageMimeType;
  readonly width: number;
  readonly height: number;

  constructor(options: HostImageOptions) {
    const { data, mimeType, width, height } = options;
    const problem = imageProblem(data, mimeType, width, height);
    if (problem !== undefined) throw new DccMcpError({ code: "INVALID_IMAGE", message: problem });
    // Marked by a registered symbol, so a copy of this package from another install still sees it.
    Object.defineProperty(this, marker, { value: true });
    this.data = data;
    this.mimeType = mimeType;
    this.width = width;
    this.height = height;
  }

  /** Whether `value` is a {@link HostImage} (of any copy of this package). */
  static is(value: unknown): value is HostImage {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  /** The reference a script sees; `id` is given by the execution that holds the image. */
  reference(id: string): ImageReference {
    const { mimeType, width, height } = this;
    return { $image: id, mimeType, width, height, bytes: this.data.byteLength };
  }

  /** Serialised outside an execution (which swaps in its own id), a reference with no id. */
  toJSON(): ImageReference {
    return imageSink === undefined ? this.reference("") : imageSink(this);
  }
}

/** Set by an execution while it serialises a command's value: gives each image its id. */
let imageSink: ((image: HostImage) => ImageReference) | undefined;

/**
 * Serialises `value` with every {@link HostImage} in it swapped for the reference `sink` gives.
 * Internal to `@dcc/executor`.
 */
export function withImageSink<T>(sink: (image: HostImage) => ImageReference, fn: () => T): T {
  const previous = imageSink;
  imageSink = sink;
  try {
    return fn();
  } finally {
    imageSink = previous;
  }
}

function imageProblem(
  data: unknown,
  mimeType: unknown,
  width: unknown,
  height: unknown,
): string | undefined {
  if (!(data instanceof Uint8Array))
    return "HostImage data must be a Uint8Array of PNG or JPEG bytes";
  for (const [name, size] of [
    ["width", width],
    ["height", height],
  ] as const) {
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 1) {
      return `HostImage ${name} must be a positive integer (got ${String(size)})`;
    }
  }
  if (mimeType === "image/png") {
    if (!pngSignature.every((byte, index) => data[index] === byte)) {
      return "HostImage data is not a PNG file (no PNG signature)";
    }
    return undefined;
  }
  if (mimeType === "image/jpeg") {
    if (data[0] !== 0xff || data[1] !== 0xd8)
      return "HostImage data is not a JPEG file (no SOI marker)";
    return undefined;
  }
  return `HostImage mimeType must be "image/png" or "image/jpeg" (got ${String(mimeType)})`;
}
