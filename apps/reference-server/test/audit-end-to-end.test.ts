// The audit log and labelled tokens of the real CLI process over real HTTP: the label names the
// client, a wrong token is refused, and neither a token nor the server's secret environment
// reaches the log; a log that cannot be written only warns, counts drops on /metrics, and the
// calls go on; the tokens file is read again on SIGHUP, so a token is revoked without a restart.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

const started: CliProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const cli of started.splice(0)) await stopCli(cli, "SIGKILL").catch(() => {});
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), "dcc-audit-cli-"));
  folders.push(folder);
  return folder;
}

const aliceToken = "alice-token-5d41402abc4b2a76";
const farmToken = "render-farm-token-7d793037a0760186";
const secret = "sk-live-0f9e8d7c6b5a49382716";

describe("audit log of the CLI", { timeout: 300_000 }, () => {
  it("names the client by its token's label and never writes a token or the server's environment", async () => {
    const folder = tempDir();
    const tokens = join(folder, "tokens");
    writeFileSync(tokens, `# clients\nalice ${aliceToken}\nrender-farm ${farmToken}\n`);
    const cli = spawnCli(["--port", "0", "--data-dir", folder, "--tokens-file", tokens], {
      DCC_MCP_AUDIT_LOG: join(folder, "logs", "audit.jsonl"),
      DCC_STUDIO_API_KEY: secret,
    });
    started.push(cli);
    const url = await startupUrl(cli);

    const refused = await fetch(url, {
      method: "POST",
      headers: {
        authorization: "Bearer not-a-configured-token-123",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(refused.status).toBe(401);

    const alice = await connectHttp(url, { authorization: `Bearer ${aliceToken}` });
    const script = 'dispatch("polySphere", { name: "ball" }); return typeof process;';
    expect(await execute(alice, script)).toMatchObject({ success: true, output: "undefined" });
    expect(await execute(alice, "throw new Error('broken')")).toMatchObject({
      success: false,
      errorCode: "SCRIPT_ERROR",
    });
    await alice.close();
    const farm = await connectHttp(url, { authorization: `Bearer ${farmToken}` });
    await execute(farm, "return 1");
    await farm.close();
    expect(await stopCli(cli, "SIGTERM")).toBe(0);

    // The file named is the one written (it was `audit.1.jsonl` with pino-roll).
    const files = readdirSync(join(folder, "logs"));
    expect(files).toEqual(["audit.jsonl"]);
    const text = readFileSync(join(folder, "logs", "audit.jsonl"), "utf8");
    const lines = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line["client"])).toEqual(["alice", "alice", "render-farm"]);
    // The name the client gave itself is kept apart, as a claim.
    expect(lines.map((line) => line["client_claimed"])).toEqual(Array(3).fill("test-client"));
    expect(lines[0]).toMatchObject({
      v: 2,
      event: "call",
      tool: "dcc_execute",
      dcc: "maya",
      script,
      outcome: { success: true, errorCode: null, completion: "complete" },
      dispatches: 1,
      commands: { polySphere: 1 },
    });
    expect(lines[1]).toMatchObject({ outcome: { success: false, errorCode: "SCRIPT_ERROR" } });
    for (const hidden of [aliceToken, farmToken, secret]) expect(text).not.toContain(hidden);
  });

  it("only warns when the log cannot be written, counts the lost lines on /metrics, and serves on", async () => {
    const folder = tempDir();
    const cli = spawnCli([
      "--port",
      "0",
      "--data-dir",
      folder,
      "--audit-log",
      "/dev/full",
      "--audit-max-bytes",
      "0",
    ]);
    started.push(cli);
    const url = await startupUrl(cli);
    const client = await connectHttp(url);
    for (let call = 0; call < 3; call++) {
      expect(await execute(client, "return 2")).toMatchObject({ success: true, output: 2 });
    }
    await client.close();
    const dropped = async (): Promise<number> => {
      const text = await (await fetch(new URL("/metrics", url))).text();
      return Number(/^dcc_audit_lines_dropped_total (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    // Every line is lost; the last may still be on its way to the disk when asked (bounded).
    const deadline = Date.now() + 60_000;
    while ((await dropped()) < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await dropped()).toBe(3);
    const warnings = cli.stderr().match(/Audit log \/dev\/full cannot be written/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(await stopCli(cli, "SIGTERM")).toBe(0);
  });
});

const bobToken = "bob-token-098f6bcd4621d373";

/** The status of an `initialize` with `token`. */
async function status(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "reload-test", version: "1" },
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

describe("tokens file on SIGHUP", { timeout: 300_000 }, () => {
  it("revokes a removed token and admits a new one; a bad file changes nothing", async () => {
    const folder = tempDir();
    const file = join(folder, "tokens");
    writeFileSync(file, `alice ${aliceToken}\n`);
    const cli = spawnCli(["--port", "0", "--data-dir", folder, "--tokens-file", file]);
    started.push(cli);
    const url = await startupUrl(cli);
    expect(await status(url, aliceToken)).toBe(200);
    expect(await status(url, bobToken)).toBe(401);

    writeFileSync(file, `# alice left\nbob ${bobToken}\n`);
    cli.child.kill("SIGHUP");
    await until(() => cli.stderr().includes("1 labelled tokens read again"));
    expect(await status(url, aliceToken)).toBe(401);
    expect(await status(url, bobToken)).toBe(200);

    writeFileSync(file, `bob ${bobToken}\ncarol short\n`);
    cli.child.kill("SIGHUP");
    await until(() => cli.stderr().includes("tokens not changed"));
    expect(cli.stderr()).toMatch(/tokens not changed: .*line 2 \(label carol\)/);
    expect(cli.stderr()).not.toContain(bobToken);
    expect(await status(url, bobToken)).toBe(200);
    expect(await stopCli(cli, "SIGTERM")).toBe(0);
  });
});
