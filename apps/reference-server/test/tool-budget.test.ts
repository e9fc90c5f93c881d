import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBlender, hasBlender, requireBlender } from "@dcc/test-support";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServerOptions } from "../src/index.ts";
import { connectHttp } from "./__fixtures__/mcp-helpers.ts";

/** The o200k size of one server's whole `tools/list` answer, and of its two descriptions. */
async function measure(options: ReferenceServerOptions): Promise<{ list: number; texts: number }> {
  const encoder = new Tiktoken(o200k);
  const dataDir = mkdtempSync(join(tmpdir(), "dcc-tool-budget-"));
  const server = await createReferenceServer({ port: 0, dataDir, ...options });
  try {
    const client = await connectHttp(server.url as string);
    try {
      const { tools } = await client.listTools();
      return {
        list: encoder.encode(JSON.stringify({ tools })).length,
        texts: encoder.encode(tools.map((tool) => tool.description ?? "").join("\n")).length,
      };
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The point of code orchestration is a small, constant tool surface: every line an adapter adds to
// its execute description (Maya's dispatch convention, Blender's reports, rollback) is paid for
// in every agent's context, so the whole tools/list stays within 800 o200k tokens.
describe("the tools/list budget", { timeout: 300_000 }, () => {
  it("keeps the default server's tools/list within 800 o200k tokens (745 today)", async () => {
    const { list, texts } = await measure({});
    expect(texts).toBeGreaterThan(100);
    expect(list).toBeLessThanOrEqual(800);
  });

  it.runIf(hasBlender || requireBlender)(
    "keeps --dcc blender's tools/list within 800 o200k tokens (640 today)",
    async () => {
      assertBlender();
      const { list, texts } = await measure({ dcc: ["blender"] });
      expect(texts).toBeGreaterThan(100);
      expect(list).toBeLessThanOrEqual(800);
    },
  );
});
