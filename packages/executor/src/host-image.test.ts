import { afterEach, describe, expect, it } from "vitest";
import { DccApiExecutor } from "./dcc-api-executor.ts";
import type { ExecutorLimits } from "./executor-limits.ts";
import { HostImage } from "./host-image.ts";
import { ToolDispatcher } from "./tool-dispatcher.ts";
import { ToolRegistry } from "./tool-registry.ts";

const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG-signed bytes of `size` bytes, each image's content distinct by `seed`. */
function pngLike(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(signature);
  for (let index = signature.length; index < size; index += 1) bytes[index] = (index + seed) % 251;
  return bytes;
}

let executor: DccApiExecutor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

function imageExecutor(limits: Partial<ExecutorLimits> = {}): DccApiExecutor {
  const registry = new ToolRegistry();
  let seed = 0;
  registry.register({
    name: "snap",
    handler: (args) => {
      const { size = 64 } = (args ?? {}) as { size?: number };
      seed += 1;
      return {
        note: "a capture",
        image: new HostImage({
          data: pngLike(size, seed),
          mimeType: "image/png",
          width: 4,
          height: 2,
        }),
      };
    },
  });
  executor = new DccApiExecutor("imaging", { dispatcher: new ToolDispatcher(registry), limits });
  return executor;
}

describe("images returned by host commands", { timeout: 60_000 }, () => {
  it("reach the script as small references and the result as bytes, wherever the value puts them", async () => {
    const result = await imageExecutor().execute(
      'const a = dispatch("snap"); const b = dispatch("snap", { size: 100 }); return { seen: Object.keys(a.image).sort(), list: [{ deep: b.image }, a.image, a.image] };',
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.output).toEqual({
      seen: ["$image", "bytes", "height", "mimeType", "width"],
      list: [
        { deep: { $image: "img-2", mimeType: "image/png", width: 4, height: 2, bytes: 100 } },
        { $image: "img-1", mimeType: "image/png", width: 4, height: 2, bytes: 64 },
        { $image: "img-1", mimeType: "image/png", width: 4, height: 2, bytes: 64 },
      ],
    });
    // In order of first appearance, once each, with the bytes the command returned.
    expect(result.images?.map((image) => image.id)).toEqual(["img-2", "img-1"]);
    expect(Buffer.from(result.images?.[0]?.data ?? "", "base64")).toEqual(
      Buffer.from(pngLike(100, 2)),
    );
    expect(Buffer.from(result.images?.[1]?.data ?? "", "base64")).toEqual(
      Buffer.from(pngLike(64, 1)),
    );
    expect(result.droppedImages).toBeUndefined();
  });

  it("attaches only the images the script's value refers to", async () => {
    const result = await imageExecutor().execute(
      'dispatch("snap"); const kept = dispatch("snap").image; return { kept, forged: { $image: "img-9" } };',
    );
    expect(result.success && result.images?.map((image) => image.id)).toEqual(["img-2"]);
    await executor?.close();
    const none = await imageExecutor().execute('dispatch("snap"); return 1;');
    expect(none.success && "images" in none).toBe(false);
  });

  it("drops images past the count and byte limits and says which and why", async () => {
    const byCount = await imageExecutor({ maxImages: 2 }).execute(
      'return [1, 2, 3].map(() => dispatch("snap").image);',
    );
    expect(byCount.success && byCount.images?.map((image) => image.id)).toEqual(["img-1", "img-2"]);
    expect(byCount.success && byCount.droppedImages).toEqual([
      {
        id: "img-3",
        width: 4,
        height: 2,
        bytes: 64,
        reason: "over the limit of 2 image(s) per result",
      },
    ]);
    await executor?.close();
    const byBytes = await imageExecutor({ maxImageBytes: 150 }).execute(
      'return [dispatch("snap", { size: 100 }).image, dispatch("snap", { size: 80 }).image, dispatch("snap", { size: 50 }).image];',
    );
    expect(byBytes.success && byBytes.images?.map((image) => image.id)).toEqual(["img-1", "img-3"]);
    expect(byBytes.success && byBytes.droppedImages?.[0]).toMatchObject({ id: "img-2", bytes: 80 });
    expect(byBytes.success && byBytes.droppedImages?.[0]?.reason).toContain("over 150 bytes");
  });

  it("refuses bytes that are not the format they claim, naming what is wrong", () => {
    const make = (options: Partial<ConstructorParameters<typeof HostImage>[0]>) => () =>
      new HostImage({
        data: pngLike(16, 0),
        mimeType: "image/png",
        width: 1,
        height: 1,
        ...options,
      });
    expect(make({ data: new Uint8Array(16) })).toThrow(/not a PNG file/);
    expect(make({ mimeType: "image/jpeg" })).toThrow(/not a JPEG file/);
    expect(make({ mimeType: "image/gif" as "image/png" })).toThrow(/mimeType must be/);
    expect(make({ width: 0 })).toThrow(/width must be a positive integer/);
    expect(HostImage.is(make({})())).toBe(true);
    expect(HostImage.is({ $image: "img-1" })).toBe(false);
  });
});
