import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, expect, it } from "vitest";
import { type MinimalServerHandle, startMinimalServer } from "./minimal-server.ts";

let handle: MinimalServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
});

it("answers initialize over Streamable HTTP", async () => {
  handle = await startMinimalServer({ port: 0 });
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  expect(client.getServerVersion()?.name).toBe("dcc-reference-server");
  await client.close();
});
