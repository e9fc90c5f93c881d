// Images back to the agent, without any DCC: the echo DCC's `capture` command over MCP, on both
// protocol revisions, synchronous and as an async job, with the image limits enforced.
import { createDccServer, type DccServer } from "@dcc/mcp-bridge";
import { connectClient, revisions, type TestClient, type ToolResult } from "@dcc/mcp-test-clients";
import { decode } from "fast-png";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEchoAdapter } from "../src/echo-adapter.ts";

interface Decoded {
  width: number;
  height: number;
  pixels: Uint8Array;
}

function images(result: ToolResult): Decoded[] {
  return result.content
    .filter((block) => block.type === "image")
    .map((block) => {
      expect(block.mimeType).toBe("image/png");
      const png = decode(Buffer.from(block.data ?? "", "base64"));
      return { width: png.width, height: png.height, pixels: png.data as Uint8Array };
    });
}

/** How many different pixel values an image has (1 for a blank one). */
function distinctPixels(image: Decoded): number {
  const seen = new Set<string>();
  const channels = image.pixels.length / (image.width * image.height);
  for (let index = 0; index < image.pixels.length; index += channels) {
    seen.add(image.pixels.subarray(index, index + channels).join(","));
  }
  return seen.size;
}

describe.each(revisions)("captures from the echo DCC (%s)", { timeout: 120_000 }, (revision) => {
  let server: DccServer;
  let client: TestClient;

  beforeAll(async () => {
    server = await createDccServer({
      adapters: [createEchoAdapter()],
      port: 0,
      limits: { maxImages: 2, maxImageBytes: 3000 },
    });
    ({ client } = await connectClient(revision, { kind: "http", url: server.url as string }));
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const run = (code: string, extra: Record<string, unknown> = {}) =>
    client.callTool({ name: "dcc_execute", arguments: { code, ...extra } }, { timeout: 60_000 });

  it("is found by searching for a screenshot or a viewport image", async () => {
    for (const query of ["screenshot", "capture an image of the viewport"]) {
      const found = await client.callTool({ name: "dcc_search", arguments: { query, limit: 3 } });
      const names = ((found.structuredContent?.["results"] ?? []) as Array<{ name: string }>).map(
        (hit) => hit.name,
      );
      expect(names[0]).toBe("capture");
    }
  });

  it("returns the image as image content beside JSON that holds only a reference", async () => {
    const result = await run(
      'dispatch("say", { text: "first line of the log" }); dispatch("say", { text: "second" }); return { shot: dispatch("capture", { width: 96, height: 64 }) };',
    );
    expect(result.isError).toBeUndefined();
    const [image, ...others] = images(result);
    expect(others).toEqual([]);
    expect(image).toMatchObject({ width: 96, height: 64 });
    expect(distinctPixels(image as Decoded)).toBeGreaterThan(1);
    const json = result.structuredContent as Record<string, unknown>;
    expect(json["output"]).toEqual({
      shot: {
        $image: "img-1",
        mimeType: "image/png",
        width: 96,
        height: 64,
        bytes: expect.any(Number),
      },
    });
    expect(json["images"]).toEqual([{ id: "img-1", mimeType: "image/png", width: 96, height: 64 }]);
    const text = result.content[0]?.text ?? "";
    expect(text.length).toBeLessThan(2000);
    expect(JSON.parse(text)).toEqual(json);
  });

  it("shows the scene as it is: a changed log gives a different image", async () => {
    const code = 'return dispatch("capture", { width: 64, height: 64 });';
    const [before] = images(await run(code));
    await run('dispatch("say", { text: "a line that changes the picture" });');
    const [after] = images(await run(code));
    expect(after?.pixels).not.toEqual(before?.pixels);
  });

  it("carries at most the limits, and says what it dropped", async () => {
    const byCount = await run(
      "return [1, 2, 3].map((side) => dispatch('capture', { width: 8 * side }));",
    );
    expect(images(byCount).map((image) => image.width)).toEqual([8, 16]);
    expect(byCount.structuredContent?.["droppedImages"]).toEqual([
      {
        id: "img-3",
        width: 24,
        height: 128,
        bytes: expect.any(Number),
        reason: "over the limit of 2 image(s) per result",
      },
    ]);
    // A 512 × 512 capture of 256 lines is larger than the 3,000-byte budget: dropped, with a
    // reason; the small one after it still fits.
    const lines = Array.from(
      { length: 256 },
      (_, index) => `dispatch("say", { text: "line ${index} ${"x".repeat(index % 40)}" });`,
    );
    const bySize = await run(
      `${lines.join("")} return [dispatch("capture", { width: 512, height: 512 }), dispatch("capture", { width: 32, height: 32 })];`,
    );
    const refs = bySize.structuredContent?.["output"] as Array<{ bytes: number }>;
    expect(refs[0]?.bytes).toBeGreaterThan(3000);
    expect(refs[1]?.bytes).toBeLessThan(3000);
    expect(images(bySize).map((image) => image.width)).toEqual([32]);
    const dropped = bySize.structuredContent?.["droppedImages"] as Array<Record<string, unknown>>;
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ id: "img-1", width: 512 });
    expect(dropped[0]?.["reason"]).toContain("capture it smaller");
  });

  it("keeps the image in an async job's result", async () => {
    const started = await run('return { shot: dispatch("capture", { width: 40, height: 30 }) };', {
      async: true,
    });
    const jobId = started.structuredContent?.["job_id"] as string;
    expect(typeof jobId).toBe("string");
    let finished: ToolResult | undefined;
    // A hang guard only: the job ends in well under a second.
    for (let attempt = 0; attempt < 600 && finished === undefined; attempt += 1) {
      const polled = await client.callTool({
        name: "dcc_execute",
        arguments: { job_id: jobId, job_action: "result" },
      });
      if (polled.structuredContent?.["output"] !== undefined) finished = polled;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(finished?.isError).toBeUndefined();
    expect(images(finished as ToolResult).map((image) => [image.width, image.height])).toEqual([
      [40, 30],
    ]);
    expect(finished?.structuredContent?.["output"]).toMatchObject({ shot: { $image: "img-1" } });
    expect(JSON.stringify(finished?.structuredContent)).not.toMatch(/"data"/);
  });
});
