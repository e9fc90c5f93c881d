/**
 * The wire format: a 4-byte big-endian length, then that many bytes of UTF-8 JSON (one object
 * with a string `type`). The same as the Python side's `codec.py`.
 */

/** A frame that breaks the format; the stream cannot be trusted after it. */
export class FrameViolation extends Error {
  override readonly name: string = "FrameViolation";
  readonly code: "FRAME_TOO_LARGE" | "BAD_FRAME";

  constructor(code: "FRAME_TOO_LARGE" | "BAD_FRAME", message: string) {
    super(message);
    this.code = code;
  }
}

/** A decoded frame: an object with a string `type`. */
export type Frame = { readonly type: string } & Readonly<Record<string, unknown>>;

const headerBytes = 4;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Encodes an already serialised JSON body as one frame. */
export function frameFromJson(json: string): Buffer {
  const length = Buffer.byteLength(json, "utf8");
  const frame = Buffer.allocUnsafe(headerBytes + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, headerBytes, "utf8");
  return frame;
}

/** Body size of a frame, for the size checks. */
export function bodyBytes(frame: Buffer): number {
  return frame.length - headerBytes;
}

/** Decodes one frame body, or throws {@link FrameViolation} (`BAD_FRAME`). */
export function decodeBody(body: Uint8Array): Frame {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch (error) {
    const what = error instanceof SyntaxError ? "JSON" : "UTF-8";
    throw new FrameViolation("BAD_FRAME", `Frame is not valid ${what}`);
  }
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    typeof (value as { type?: unknown }).type !== "string"
  ) {
    throw new FrameViolation("BAD_FRAME", "Frame is not a JSON object with a string type");
  }
  return value as Frame;
}

/** Splits a byte stream into frames, refusing any above `maxFrameBytes`. */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  // Chunks are joined only once the next frame is complete, so a large frame arriving in many
  // chunks is copied once, not once per chunk.
  #chunks: Buffer[] = [];
  #length = 0;
  #needed = headerBytes;

  constructor(maxFrameBytes: number) {
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Bytes received and not yet part of a returned frame. */
  get buffered(): number {
    return this.#length;
  }

  /**
   * Adds bytes and returns every frame now complete, in order.
   * @throws {FrameViolation} as soon as a header announces an oversized frame (before its body
   *   arrives), or a body does not decode.
   */
  push(chunk: Buffer): Frame[] {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#length < this.#needed) return [];
    const buffer =
      this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    const frames: Frame[] = [];
    let offset = 0;
    this.#needed = headerBytes;
    while (buffer.length - offset >= headerBytes) {
      const length = buffer.readUInt32BE(offset);
      if (length > this.#maxFrameBytes) {
        throw new FrameViolation(
          "FRAME_TOO_LARGE",
          `Frame of ${length} bytes exceeds the limit of ${this.#maxFrameBytes} bytes`,
        );
      }
      const end = offset + headerBytes + length;
      if (buffer.length < end) {
        this.#needed = headerBytes + length;
        break;
      }
      frames.push(decodeBody(buffer.subarray(offset + headerBytes, end)));
      offset = end;
    }
    const tail = buffer.subarray(offset);
    this.#chunks = tail.length === 0 ? [] : [tail];
    this.#length = tail.length;
    return frames;
  }
}
