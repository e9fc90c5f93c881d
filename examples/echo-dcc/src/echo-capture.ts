import { createHash } from "node:crypto";
import { HostImage } from "@dcc/executor";
import { encode } from "fast-png";

/** Largest side of a capture, in pixels. */
export const maxCaptureSide = 512;

/**
 * A picture of the echo log: one horizontal band per line, its colour taken from the line's
 * text, on a dark grey ground. A real adapter would render its viewport here; the point is the
 * same: the image is made host-side and returned as a {@link HostImage}.
 */
export function captureLines(lines: readonly string[], width: number, height: number): HostImage {
  const pixels = new Uint8Array(width * height * 3).fill(32);
  const band = lines.length === 0 ? 0 : Math.max(1, Math.floor(height / lines.length));
  lines.forEach((line, index) => {
    const [red, green, blue] = createHash("sha256").update(line).digest();
    const top = index * band;
    // Each band is as long as its line (a longer line, a longer band), at least a pixel.
    const length = Math.max(1, Math.min(width, Math.round((line.length / 40) * width)));
    for (let y = top; y < Math.min(height, top + band); y += 1) {
      for (let x = 0; x < length; x += 1)
        pixels.set([red ?? 0, green ?? 0, blue ?? 0], (y * width + x) * 3);
    }
  });
  const data = encode({ width, height, data: pixels, channels: 3, depth: 8 });
  return new HostImage({ data, mimeType: "image/png", width, height });
}
