// Clients that attack the HTTP endpoint rather than the sandbox, against the real reference
// server: a flood of sessions that each made a call, an oversized body, a client that forges the
// name the audit log records. Each must leave the server serving, and honest clients served.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { revisions } from "@dcc/mcp-test-clients";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  assertServing,
  callTool,
  generousMs,
  type ReliabilityServer,
  startReliabilityServer,
} from "./__fixtures__/reliability-server.ts";

let harness: ReliabilityServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("a flood of sessions", () => {
  // Found by a red team: 64 sessions that each made one dcc_search filled the table, and every
  // new 2025-11-25 client got 503 for 30 minutes.
  it("lets a new client in after 70 sessions that each made one call", async () => {
    // Any session not answering a call may give way, so the test need not wait out the minute.
    harness = await startReliabilityServer({ server: { sessionEvictIdleMs: 0 } });
    for (let i = 0; i < 70; i++) {
      const flooding = await harness.connect();
      const { result } = await callTool(flooding, "dcc_search", { query: "sphere", limit: 1 });
      expect(result.structuredContent?.["success"]).toBe(true);
    }
    await assertServing(await harness.connect());
  });
});

describe.each(revisions)("an oversized body (%s)", (revision) => {
  // Found by a red team: a 10 MB script got a 413 the client never read ("fetch failed").
  it("gets a 413 whose message the SDK client reads, and the client goes on working", async () => {
    harness = await startReliabilityServer();
    const entry = fileURLToPath(new URL("./__fixtures__/oversized-client.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", entry, harness.url, revision],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A hang guard only.
    const guard = setTimeout(() => child.kill("SIGKILL"), 4 * generousMs);
    const [code] = (await once(child, "exit")) as [number | null];
    clearTimeout(guard);
    expect(code, stderr).toBe(0);
    const seen = JSON.parse(stdout) as Array<{ refused?: string; after?: unknown }>;
    expect(seen).toHaveLength(3);
    for (const { refused, after } of seen) {
      expect(refused).toContain("Payload Too Large: request body must not exceed 4194304 bytes");
      expect(after).toBe(2);
    }
    await assertServing(await harness.connect(revision));
  });
});

describe("a client that forges its name", () => {
  // Found by a red team: with the unlabelled token, a client calling itself "alice" was logged
  // as `"client": "alice"`, like the holder of alice's labelled token.
  it("is logged by its claim only, in the audit file named, beside the labelled client", async () => {
    const folder = await mkdtemp(join(tmpdir(), "dcc-hostile-audit-"));
    folders.push(folder);
    const shared = "shared-token-0123456789";
    const alice = "alice-token-0123456789";
    const file = join(folder, "audit.jsonl");
    harness = await startReliabilityServer({
      server: { token: shared, tokens: [{ label: "alice", token: alice }], audit: { file } },
    });
    for (const [name, token] of [
      ["alice", shared],
      ["alice-laptop", alice],
    ] as const) {
      const client = new Client({ name, version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(harness.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      await client.callTool({ name: "dcc_execute", arguments: { code: "return 1" } }, undefined, {
        timeout: generousMs,
      });
      await client.close();
    }
    await harness.close();
    harness = undefined;
    // The named file is the live one (rotation would put older lines beside it).
    expect(await readdir(folder)).toEqual(["audit.jsonl"]);
    const lines = (await readFile(file, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line["client"], line["client_claimed"]])).toEqual([
      ["-", "alice"],
      ["alice", "alice-laptop"],
    ]);
  });
});
