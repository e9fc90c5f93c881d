import type { TestClient } from "@dcc/mcp-test-clients";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp } from "./__fixtures__/mcp-helpers.ts";

let server: ReferenceServer;
let client: TestClient;

beforeAll(async () => {
  server = await createReferenceServer({ port: 0 });
  client = await connectHttp(server.url as string);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

// The point of code orchestration is a small, constant tool surface: the Maya server's own
// longer dcc_execute description (it adds the dispatch convention) must stay within budget too.
it("keeps both tool descriptions within 600 o200k tokens and tools/list near 1,000 (446 and 995 today)", async () => {
  const encoder = new Tiktoken(o200k);
  const { tools } = await client.listTools();
  const descriptions = tools.map((tool) => tool.description ?? "").join("\n");
  const descriptionTokens = encoder.encode(descriptions).length;
  expect(descriptionTokens).toBeLessThanOrEqual(600);
  expect(encoder.encode(JSON.stringify({ tools })).length).toBeLessThanOrEqual(1100);
});
