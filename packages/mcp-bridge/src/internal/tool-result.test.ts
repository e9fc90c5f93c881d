import { describe, expect, it } from "vitest";
import { fitResult, toToolResult } from "./tool-result.ts";

describe("toToolResult", () => {
  it("puts the same JSON in text and structuredContent, with isError on failure", () => {
    const ok = toToolResult({ success: true, message: "fine", output: { a: 1 } }, 24_000);
    expect(ok.isError).toBeUndefined();
    expect(JSON.parse((ok.content[0] as { text: string }).text)).toEqual(ok.structuredContent);
    const failed = toToolResult({ success: false, message: "no", error: "boom" }, 24_000);
    expect(failed.isError).toBe(true);
  });
});

describe("fitResult", () => {
  it("leaves a result that fits untouched", () => {
    const result = { success: true, message: "m", output: [1, 2, 3] };
    expect(fitResult(result, 1000)).toBe(result);
  });

  it("trims structurally and always yields valid JSON within budget", () => {
    const output = Array.from({ length: 5000 }, (_, index) => ({
      name: `node${index}`,
      path: "x".repeat(50),
    }));
    const logs = Array.from({ length: 300 }, (_, index) => `line ${index}`);
    const fitted = fitResult({ success: true, message: "big", output, logs }, 5000);
    const text = JSON.stringify(fitted);
    expect(text.length).toBeLessThanOrEqual(5000);
    expect(JSON.parse(text)).toEqual(fitted);
    expect(fitted["truncated"]).toMatchObject({
      originalChars: JSON.stringify({ success: true, message: "big", output, logs }).length,
    });
    const kept = fitted["output"] as unknown[];
    expect(kept[0]).toEqual({ name: "node0", path: "x".repeat(50) });
    expect(String(kept.at(-1))).toMatch(/more items/);
    expect(fitted.success).toBe(true);
    expect(fitted.message).toBe("big");
  });

  it("keeps the report of an output the executor already cut inside its own", () => {
    const earlier = { limitChars: 1000, keptChars: 900, itemsLeftOut: 12, note: "cut" };
    const output = Array.from({ length: 200 }, (_, index) => `item ${index} ${"q".repeat(20)}`);
    const fitted = fitResult({ success: true, message: "m", output, truncated: earlier }, 2000);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(2000);
    expect(fitted["truncated"]).toMatchObject({
      outputOverLimit: earlier,
      keptChars: expect.any(Number),
    });
    const small = { success: true, message: "m", output: [1], truncated: earlier };
    expect(fitResult(small, 2000)).toBe(small);
  });

  it("keeps the first and last log entries as entries, saying how many were left out", () => {
    const logs = Array.from({ length: 1000 }, (_, index) => ({
      level: "log",
      message: `line ${index} ${"z".repeat(40)}`,
    }));
    logs.push({ level: "warn", message: "[99000 more log entries dropped: log limit reached]" });
    const fitted = fitResult({ success: true, message: "m", output: null, logs }, 8000);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(8000);
    const kept = fitted["logs"] as Array<{ level: string; message: string }>;
    for (const item of kept)
      expect(item).toEqual({ level: expect.any(String), message: expect.any(String) });
    expect(kept[0]?.message).toMatch(/^line 0 /);
    // The executor's own note, last, survives the trimming.
    expect(kept.at(-1)?.message).toMatch(/99000 more log entries dropped/);
    const gap = kept.find((item) => /left out here/.test(item.message));
    const omitted = Number(/\[(\d+) log entries left out/.exec(gap?.message ?? "")?.[1]);
    expect(omitted + kept.length - 1).toBe(logs.length);
  });

  it("shortens one huge string with a marker", () => {
    const fitted = fitResult({ success: true, message: "m", output: "y".repeat(100_000) }, 2000);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(2000);
    expect(fitted["output"]).toMatch(/more chars\]$/);
  });

  it("drops the payload when even the smallest shape is too large", () => {
    const fitted = fitResult(
      { success: true, message: "m", output: Array.from({ length: 10 }, () => ({ k: 1 })) },
      10,
    );
    expect(fitted["output"]).toBeUndefined();
    expect(fitted["truncated"]).toMatchObject({ dropped: ["output", "logs", "results"] });
  });
});

describe("images in a result", () => {
  const image = { id: "img-1", mimeType: "image/png", width: 2, height: 1, data: "iVBORw0KGgo=" };

  it("go out as image content after the text, and the JSON keeps their metadata only", () => {
    const result = toToolResult(
      { success: true, message: "m", output: { shot: { $image: "img-1" } }, images: [image] },
      24_000,
    );
    expect(result.content).toEqual([
      { type: "text", text: JSON.stringify(result.structuredContent) },
      { type: "image", data: image.data, mimeType: "image/png" },
    ]);
    expect((result.structuredContent as Record<string, unknown>)["images"]).toEqual([
      { id: "img-1", mimeType: "image/png", width: 2, height: 1 },
    ]);
    expect(JSON.stringify(result.structuredContent)).not.toContain(image.data);
  });

  it("do not count against the JSON budget when a job's result is fitted", () => {
    const big = { ...image, data: "A".repeat(10_000) };
    const kept = { success: true, message: "m", output: 1, images: [big] };
    expect(fitResult(kept, 1000)).toBe(kept);
    const trimmed = fitResult({ ...kept, output: "x".repeat(5000) }, 1000);
    expect(trimmed["images"]).toEqual([big]);
    expect(trimmed["truncated"]).toBeDefined();
  });
});
