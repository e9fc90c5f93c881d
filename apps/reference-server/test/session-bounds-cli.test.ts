// The CLI's session bounds reach the HTTP endpoint: with room for one session that may not give
// way for ten minutes, a second client is refused with the reason; with no idle minimum, it gets in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CliProcess,
  connectHttp,
  execute,
  spawnCli,
  startupUrl,
  stopCli,
} from "./__fixtures__/mcp-helpers.ts";

const started: CliProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const cli of started.splice(0)) await stopCli(cli, "SIGKILL").catch(() => {});
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function initialize(url: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "second", version: "1" },
      },
    }),
  });
}

describe("CLI session bounds", { timeout: 300_000 }, () => {
  it("takes --max-sessions and --session-evict-idle (DCC_MCP_SESSION_EVICT_IDLE)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-cli-sessions-"));
    folders.push(dataDir);
    for (const [evictIdle, expected] of [
      ["600", 503],
      ["0", 200],
    ] as const) {
      const cli = spawnCli(["--port", "0", "--data-dir", dataDir, "--max-sessions", "1"], {
        DCC_MCP_SESSION_EVICT_IDLE: evictIdle,
      });
      started.push(cli);
      const url = await startupUrl(cli);
      const first = await connectHttp(url);
      expect(await execute(first, "return 1")).toMatchObject({ success: true, output: 1 });
      const second = await initialize(url);
      expect(second.status).toBe(expected);
      const body = await second.text();
      if (expected === 503) {
        expect(body).toContain("Too many sessions for this server (1), none idle for 600 s");
      }
      await first.close().catch(() => {});
      expect(await stopCli(cli, "SIGTERM")).toBe(0);
    }
  });
});
