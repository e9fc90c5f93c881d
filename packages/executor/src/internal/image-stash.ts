// The images one execution's host commands returned, held host-side by id; on success the ones
// the script's value refers to are attached to the result, within the image limits.
import type { ExecuteImage, ExecuteImageDropped, JsonValue } from "../execute-result.ts";
import type { HostImage, ImageReference } from "../host-image.ts";

/** What {@link ImageStash.collect} attaches and what it left out. */
export interface CollectedImages {
  images: ExecuteImage[];
  dropped: ExecuteImageDropped[];
}

/** The images of one execution. */
export class ImageStash {
  readonly #byId = new Map<string, HostImage>();
  readonly #ids = new Map<HostImage, string>();

  /** Holds `image` (once, however often it is returned) and gives its reference. */
  readonly add = (image: HostImage): ImageReference => {
    let id = this.#ids.get(image);
    if (id === undefined) {
      id = `img-${this.#byId.size + 1}`;
      this.#byId.set(id, image);
      this.#ids.set(image, id);
    }
    return image.reference(id);
  };

  /** How many images host commands returned. */
  get size(): number {
    return this.#byId.size;
  }

  /**
   * The images `output` refers to (`{ $image: id }` of this execution), in order of first
   * appearance: at most `maxImages`, and at most `maxImageBytes` in all; the rest are reported
   * as dropped with the reason.
   */
  collect(
    output: JsonValue,
    limits: { maxImages: number; maxImageBytes: number },
  ): CollectedImages {
    const found: string[] = [];
    if (this.#byId.size > 0) this.#find(output, new Set(), found);
    const images: ExecuteImage[] = [];
    const dropped: ExecuteImageDropped[] = [];
    let total = 0;
    for (const id of found) {
      const image = this.#byId.get(id) as HostImage;
      const { mimeType, width, height } = image;
      const bytes = image.data.byteLength;
      if (images.length >= limits.maxImages) {
        dropped.push({
          id,
          width,
          height,
          bytes,
          reason: `over the limit of ${limits.maxImages} image(s) per result`,
        });
      } else if (total + bytes > limits.maxImageBytes) {
        dropped.push({
          id,
          width,
          height,
          bytes,
          reason: `${bytes} bytes would bring the result's images over ${limits.maxImageBytes} bytes; capture it smaller`,
        });
      } else {
        total += bytes;
        images.push({
          id,
          mimeType,
          width,
          height,
          data: Buffer.from(image.data).toString("base64"),
        });
      }
    }
    return { images, dropped };
  }

  #find(value: JsonValue, seen: Set<string>, found: string[]): void {
    if (value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) this.#find(item, seen, found);
      return;
    }
    const id = value["$image"];
    if (typeof id === "string" && this.#byId.has(id)) {
      if (!seen.has(id)) {
        seen.add(id);
        found.push(id);
      }
      return;
    }
    for (const item of Object.values(value)) this.#find(item, seen, found);
  }
}
