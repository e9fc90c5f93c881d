// A memory limit reached on any path of a script (its synchronous code, a promise job, a dispatch
// made from one) is reported as the memory limit through MCP, not as a script that awaits
// nothing. The timeout is the largest a call may ask for, so only the memory limit can end these.
import type { TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute } from "./__fixtures__/mcp-helpers.ts";

describe("the memory limit through MCP", { timeout: 300_000 }, () => {
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

  const memoryLimit = {
    success: false,
    errorCode: "LIMIT_EXCEEDED",
    limit: "memory",
    error: "InternalError: out of memory (memory limit of 64 MiB reached)",
  };

  it.each([
    [
      "a promise chain that nests until memory runs out",
      "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
    ],
    [
      "memory growing inside promise jobs",
      "const a = []; const grow = () => Promise.resolve().then(() => { a.push(new Array(10000).fill(1)); grow(); }); grow(); await new Promise(() => {});",
    ],
    [
      "memory growing in synchronous code",
      "const a = []; for (;;) a.push(new Array(10000).fill(1));",
    ],
  ])("%s", async (_name, code) => {
    const outcome = await execute(client, code, { timeout_secs: 300 }, { timeout: 290_000 });
    expect(outcome).toMatchObject(memoryLimit);
  });

  it("still reports a script that awaits nothing as a script error", async () => {
    const outcome = await execute(client, "await new Promise(() => {});", { timeout_secs: 300 });
    expect(outcome).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(outcome["error"]).toContain("can never settle");
  });
});
