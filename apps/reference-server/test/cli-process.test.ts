import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
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
  until,
} from "./__fixtures__/mcp-helpers.ts";
import { seedScript } from "./__fixtures__/scripts.ts";

const started: CliProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const cli of started.splice(0)) await stopCli(cli, "SIGKILL").catch(() => {});
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * Starts the CLI on a free port given through the environment. Another process (tests of other
 * worktrees share the machine) can take the port between picking and binding it: that start is
 * tried again with a new port, a few times.
 */
async function startOnFreePort(): Promise<{ cli: CliProcess; port: number; url: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const cli = spawnCli([], { DCC_MCP_PORT: String(port), DCC_MCP_HOST: "127.0.0.1" });
    started.push(cli);
    try {
      return { cli, port, url: await startupUrl(cli) };
    } catch (error) {
      if (attempt >= 5 || !cli.stderr().includes("EADDRINUSE")) throw error;
    }
  }
}

function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), "dcc-cli-"));
  folders.push(folder);
  return folder;
}

describe("CLI over HTTP", { timeout: 300_000 }, () => {
  it("prints the URL, serves MCP and shuts down cleanly on SIGTERM", async () => {
    const dataDir = tempDir();
    const cli = spawnCli(["--port", "0", "--data-dir", dataDir]);
    started.push(cli);
    const url = await startupUrl(cli);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(cli.stderr()).toContain(`scene files in ${dataDir}`);
    const client = await connectHttp(url);
    expect(await execute(client, seedScript)).toMatchObject({
      success: true,
      output: { created: 5 },
    });
    await client.close();
    expect(await stopCli(cli, "SIGTERM")).toBe(0);
    expect(cli.stderr()).toContain("SIGTERM, shutting down");
  });

  it("takes the port and host from the environment and shuts down on SIGINT (Ctrl-C) while a script runs", async () => {
    const { cli, port, url } = await startOnFreePort();
    expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
    const client = await connectHttp(url);
    // The client may keep retrying a request whose server went away, so it is not awaited.
    void execute(
      client,
      'for (;;) { dispatch("createNode", ["transform"]); const until = Date.now() + 2; while (Date.now() < until) {} }',
    ).catch(() => {});
    // Interrupt only once the script surely runs: a sandbox worker is busy with it. (Asking the
    // scene would wait behind it: the simulated Maya runs one script at a time.)
    const metrics = url.replace(/\/mcp$/, "/metrics");
    await until(async () =>
      /^dcc_mcp_sandbox_workers\{[^}]*state="busy"[^}]*\} [1-9]/m.test(
        await (await fetch(metrics)).text(),
      ),
    );
    expect(await stopCli(cli, "SIGINT")).toBe(0);
    expect(cli.stderr()).toContain("SIGINT, shutting down");
    await client.close().catch(() => {});
  });

  it("exits with a usage error for unknown flags, and refuses a remote bind without a token", async () => {
    const bad = spawnCli(["--bogus"]);
    started.push(bad);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/Unknown option '--bogus'[\s\S]*Usage: dcc-mcp/);
    const remote = spawnCli(["--port", "0", "--host", "0.0.0.0"]);
    started.push(remote);
    expect(await remote.exited).toBe(1);
    expect(remote.stderr()).toMatch(/could not start: .*auth\.token/);
  });

  it("exits with a usage error naming the known DCCs for an unknown --dcc", async () => {
    const cli = spawnCli(["--dcc", "maya,houdini", "--port", "0"]);
    started.push(cli);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('Unknown DCC: "houdini" (known: blender, maya)');
  });
});
