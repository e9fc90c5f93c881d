import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { revisions } from "@dcc/mcp-test-clients";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type HttpHarness, startHttpHarness, waitUntil } from "./__fixtures__/http-harness.ts";
import { modernBody, modernHeaders } from "./__fixtures__/raw-http.ts";
import { type AuditLog, createAuditLog } from "./audit-log.ts";
import type { DccToolCallEvent } from "./dcc-tool-call-event.ts";
import { auditLine } from "./internal/audit-line.ts";

// The package root, where tsx and the source condition resolve for a child process.
const packageDir = fileURLToPath(new URL("..", import.meta.url));
let folder: string;
let harness: HttpHarness | undefined;
let log: AuditLog | undefined;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "dcc-audit-"));
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await log?.close();
  log = undefined;
  await rm(folder, { recursive: true, force: true });
});

async function lines(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function event(index: number): DccToolCallEvent {
  return {
    tool: "dcc_execute",
    kind: "execute",
    dccName: "maya",
    result: { success: true, message: "ok", stats: { dispatchCalls: 1, commands: { tick: 1 } } },
    durationMs: 1,
    sessionId: undefined,
    jobId: `job-${String(index).padStart(4, "0")}`,
    script: { code: `return ${index};`, sha256: "0".repeat(64) },
  };
}

describe.each(revisions)("audit log over MCP (%s)", (revision) => {
  it("writes a line per call: success, failure, async submission and end, cancel", async () => {
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 0 });
    harness = await startHttpHarness({ onToolCall: log.record }, { revision });
    const client = await harness.connect();
    const execute = (args: Record<string, unknown>) =>
      client.callTool({ name: "dcc_execute", arguments: args }) as Promise<{
        structuredContent?: Record<string, unknown>;
      }>;
    await execute({ code: 'dispatch("tick"); dispatch("tick"); return 1' });
    await execute({ code: "throw new Error('boom')" });
    const job = await execute({ code: 'return dispatch("tick")', async: true });
    const jobId = job.structuredContent?.["job_id"] as string;
    await waitUntil(() => harness?.test.results.length === 3);
    const blocked = await execute({ code: 'dispatch("block"); return 1', async: true });
    const blockedId = blocked.structuredContent?.["job_id"] as string;
    await execute({ job_id: blockedId, job_action: "cancel" });
    await waitUntil(() => harness?.test.results.length === 4);
    await log.close();

    const written = await lines(file);
    const calls = written.filter((line) => line["event"] === "call");
    const jobs = written.filter((line) => line["event"] === "job");
    for (const line of written) {
      // No labelled token: the client's own name is only its claim.
      expect(line).toMatchObject({
        v: 2,
        tool: "dcc_execute",
        dcc: "maya",
        client: "-",
        client_claimed: "test-client",
      });
      expect(new Date(line["time"] as string).toISOString()).toBe(line["time"]);
      expect(line["session"]).toEqual(revision === "2025-11-25" ? expect.any(String) : "-");
      expect(line["duration_ms"]).toEqual(expect.any(Number));
    }
    expect(calls[0]).toMatchObject({
      script: 'dispatch("tick"); dispatch("tick"); return 1',
      script_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      job_id: expect.any(String),
      async: false,
      outcome: { success: true, errorCode: null, completion: "complete" },
      dispatches: 2,
      commands: { tick: 2 },
    });
    expect(calls[1]).toMatchObject({
      outcome: { success: false, errorCode: "SCRIPT_ERROR", completion: "complete" },
      dispatches: 0,
      commands: null,
    });
    expect(calls[2]).toMatchObject({ job_id: jobId, async: true, outcome: { success: true } });
    expect(jobs.find((line) => line["job_id"] === jobId)).toMatchObject({
      async: true,
      outcome: { success: true, completion: "complete" },
      commands: { tick: 1 },
    });
    expect(calls.find((line) => line["job_action"] === "cancel")).toMatchObject({
      job_id: blockedId,
    });
    expect(jobs.find((line) => line["job_id"] === blockedId)).toMatchObject({
      outcome: { success: false, errorCode: "CANCELLED" },
    });
    expect(log.dropped).toBe(0);
    expect(log.written).toBe(written.length);
  });
});

describe("audit log client names", () => {
  // Found by a red team: with the unlabelled token, a client calling itself "alice" was logged as
  // `"client": "alice"`, like the holder of alice's labelled token.
  it("names a client only by its labelled token; the name it gives itself is a claim", async () => {
    const plain = "plain-token-0123456789";
    const aliceToken = "alice-token-0123456789";
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 0 });
    harness = await startHttpHarness({
      onToolCall: log.record,
      auth: { token: plain, tokens: [{ label: "alice", token: aliceToken }] },
    });
    const search = { name: "dcc_search", arguments: { query: "tick" } };
    async function callAs(name: string, token: string): Promise<void> {
      const client = new Client({ name, version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(harness?.url ?? ""), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      await client.callTool(search);
      await client.close();
    }
    await callAs("alice", plain); // the forger, with the shared unlabelled token
    await callAs("alice-desktop", aliceToken); // alice herself
    await callAs("alice", aliceToken);
    // A 2026-07-28 request names its client in its envelope: a claim too.
    const modern = await fetch(harness.url, {
      method: "POST",
      headers: { ...modernHeaders("tools/call", "dcc_search"), authorization: `Bearer ${plain}` },
      body: modernBody(1, "tools/call", {
        ...search,
        _meta: { "io.modelcontextprotocol/clientInfo": { name: "alice", version: "1" } },
      }),
    });
    expect(modern.status).toBe(200);
    await modern.text();
    await log.close();
    const who = (await lines(file)).map((line) => [line["client"], line["client_claimed"]]);
    expect(who).toEqual([
      ["-", "alice"],
      ["alice", "alice-desktop"],
      ["alice", "alice"],
      ["-", "alice"],
    ]);
  });
});

describe("audit log file", () => {
  it("leaves the script text out when asked, keeping its hash", async () => {
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 0, script: false });
    log.record(event(1));
    await log.close();
    const [line] = await lines(file);
    expect(line).toMatchObject({ script_sha256: "0".repeat(64), job_id: "job-0001" });
    expect(line).not.toHaveProperty("script");
  });

  it("records what the commands reported creating and removing, and the files written", async () => {
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 0 });
    log.record({
      ...event(1),
      result: {
        success: false,
        message: "failed",
        errorCode: "SCRIPT_ERROR",
        completion: "complete",
        stats: {
          dispatchCalls: 2,
          changes: { created: ['meshes["Cube"]'], removed: [], more: { created: 4 } },
        },
        rollback: { rolledBack: true, filesWritten: ["/shots/a.png"] },
      },
    });
    await log.close();
    expect((await lines(file))[0]).toMatchObject({
      created: ['meshes["Cube"]'],
      removed: [],
      changes_more: { created: 4 },
      files_written: ["/shots/a.png"],
      rolled_back: true,
    });
  });

  it("masks secret-looking parameters of a file_path call", async () => {
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 0 });
    log.record({
      ...event(1),
      script: {
        filePath: "/scripts/publish.js",
        params: { shot: "sh010", password: "hunter2-hunter2", nested: { apiKey: "k-123456" } },
      },
    });
    await log.close();
    const text = await readFile(file, "utf8");
    expect(JSON.parse(text)).toMatchObject({
      file_path: "/scripts/publish.js",
      params: { shot: "sh010", password: "[redacted]", nested: { apiKey: "[redacted]" } },
    });
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("k-123456");
  });

  // Found by a red team: with pino-roll, `audit.jsonl` was written as `audit.1.jsonl` and the
  // file the operator named never existed, so `tail -F` and log shippers saw nothing.
  it("writes the named file itself and rotates it at the size bound, keeping maxFiles files", async () => {
    const file = join(folder, "audit.jsonl");
    const maxBytes = 2000;
    log = await createAuditLog({ file, maxBytes, maxFiles: 3 });
    const sizes: number[] = [];
    for (let index = 0; index < 40; index++) {
      log.record(event(index));
      // One line at a time, so each rotation falls exactly where the bound was reached.
      await log.flush();
      sizes.push((await stat(file)).size);
    }
    await log.close();
    // The named file is the live one from the first line on, growing until a rotation.
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes.some((size, index) => index > 0 && size < (sizes[index - 1] as number))).toBe(
      true,
    );
    const names = (await readdir(folder)).sort();
    expect(names).toEqual(["audit.1.jsonl", "audit.2.jsonl", "audit.jsonl"]);
    const ids: string[] = [];
    // Oldest first: .2, then .1, then the live file.
    const ordered = ["audit.2.jsonl", "audit.1.jsonl", "audit.jsonl"];
    for (const [position, name] of ordered.entries()) {
      const content = await lines(join(folder, name));
      const size = (await stat(join(folder, name))).size;
      // No file passes the bound; a rotated one was closed because its next line would have.
      expect(size).toBeLessThanOrEqual(maxBytes);
      const next = ordered[position + 1];
      if (next !== undefined) {
        const nextLine = `${JSON.stringify((await lines(join(folder, next)))[0])}\n`;
        expect(size + Buffer.byteLength(nextLine)).toBeGreaterThan(maxBytes);
      }
      ids.push(...content.map((line) => line["job_id"] as string));
    }
    // The newest lines, in order, ending with the last one.
    expect(ids.at(-1)).toBe("job-0039");
    expect(ids).toEqual([...ids].sort());
    expect(Number(ids[0]?.slice(4))).toBeGreaterThan(0);
    expect(log.written).toBe(40);
  });

  it("loses no line and keeps their order when lines arrive faster than the disk takes them", async () => {
    const file = join(folder, "audit.jsonl");
    log = await createAuditLog({ file, maxBytes: 4000, maxFiles: 1000 });
    for (let index = 0; index < 500; index++) log.record(event(index));
    await log.close();
    const names = (await readdir(folder)).filter((name) => name !== "audit.jsonl");
    const numbers = names.map((name) => Number(/^audit\.(\d+)\.jsonl$/.exec(name)?.[1]));
    expect(numbers.every((number) => Number.isInteger(number))).toBe(true);
    const ids: string[] = [];
    // Highest number first (the oldest), the live file last.
    for (const number of numbers.sort((a, b) => b - a)) {
      ids.push(
        ...(await lines(join(folder, `audit.${number}.jsonl`))).map((l) => String(l["job_id"])),
      );
    }
    ids.push(...(await lines(file)).map((line) => String(line["job_id"])));
    expect(ids).toEqual(Array.from({ length: 500 }, (_, index) => event(index).jobId));
    expect(log.written).toBe(500);
    expect(log.dropped).toBe(0);
  });

  it("warns once and drops lines when a rotation fails, and never throws to the caller", async () => {
    const file = join(folder, "audit.jsonl");
    // A folder where the rotated file must go, which cannot be removed to make room.
    await mkdir(join(folder, "audit.1.jsonl"));
    await writeFile(join(folder, "audit.1.jsonl", "keep"), "");
    const warnings: string[] = [];
    log = await createAuditLog({
      file,
      maxBytes: 100,
      maxFiles: 2,
      retryMs: 60_000,
      onWarning: (message) => warnings.push(message),
    });
    log.record(event(1));
    await log.flush();
    log.record(event(2));
    log.record(event(3));
    await log.flush();
    expect(log.written).toBe(1);
    expect(log.dropped).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Audit log .*audit\.jsonl cannot be written \(E[A-Z]+\)/);
    expect((await lines(file)).map((line) => line["job_id"])).toEqual(["job-0001"]);
  });

  it("appends to the named file of an earlier run and moves older files up one", async () => {
    const file = join(folder, "audit.jsonl");
    await writeFile(file, '{"v":2,"earlier":"live"}\n');
    await writeFile(join(folder, "audit.1.jsonl"), '{"v":2,"earlier":"rotated"}\n');
    await writeFile(join(folder, "audit.7.jsonl"), "an old run's file, past maxFiles\n");
    await writeFile(join(folder, "audit.notes.jsonl"), "not one of ours\n");
    // Room for the earlier run's line and one more, not two.
    const lineBytes = Buffer.byteLength(`${JSON.stringify(auditLine(event(1), true))}\n`);
    log = await createAuditLog({ file, maxBytes: lineBytes + 40, maxFiles: 3 });
    log.record(event(1));
    await log.flush();
    log.record(event(2));
    await log.close();
    const names = (await readdir(folder)).sort();
    expect(names).toEqual(["audit.1.jsonl", "audit.2.jsonl", "audit.jsonl", "audit.notes.jsonl"]);
    expect((await lines(join(folder, "audit.2.jsonl")))[0]).toEqual({ v: 2, earlier: "rotated" });
    const first = await lines(join(folder, "audit.1.jsonl"));
    expect(first[0]).toEqual({ v: 2, earlier: "live" });
    expect(first.slice(1).map((line) => line["job_id"])).toEqual(["job-0001"]);
    expect((await lines(file)).map((line) => line["job_id"])).toEqual(["job-0002"]);
  });

  it("only warns once and counts dropped lines when the disk is full", async () => {
    const warnings: string[] = [];
    const registry = new Registry();
    log = await createAuditLog({
      file: "/dev/full",
      maxBytes: 0,
      // Retries fail the same way; whether one happens in between changes no count.
      retryMs: 0,
      registry,
      onWarning: (message) => warnings.push(message),
    });
    for (let index = 0; index < 3; index++) log.record(event(index));
    await log.flush();
    log.record(event(4));
    await log.flush();
    expect(log.dropped).toBe(4);
    expect(log.written).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Audit log \/dev\/full cannot be written \(ENOSPC\)/);
    const metric = await registry.getSingleMetricAsString("dcc_audit_lines_dropped_total");
    expect(metric).toMatch(/^dcc_audit_lines_dropped_total 4$/m);
    // A registry known only later (a server's, once started) gets the drops so far, then more.
    const later = new Registry();
    log.registerMetrics(later);
    log.record(event(5));
    await log.flush();
    const counted = await later.getSingleMetricAsString("dcc_audit_lines_dropped_total");
    expect(counted).toMatch(/^dcc_audit_lines_dropped_total 5$/m);
  });

  it("lets a process exit quietly with a log it cannot write", async () => {
    const entry = fileURLToPath(new URL("./__fixtures__/audit-exit.ts", import.meta.url));
    const blocked = join(folder, "not-a-folder");
    await writeFile(blocked, "");
    for (const [file, maxBytes] of [
      ["/dev/full", 0],
      [join(blocked, "audit.jsonl"), 0],
      [join(blocked, "audit.jsonl"), 1024],
    ] as const) {
      const run = spawnSync(
        process.execPath,
        ["--conditions=@dcc/source", "--import", "tsx", entry, file, String(maxBytes)],
        { cwd: packageDir, encoding: "utf8", timeout: 120_000 },
      );
      expect({ file, maxBytes, status: run.status, stderr: run.stderr }).toEqual({
        file,
        maxBytes,
        status: 0,
        stderr: "",
      });
    }
  });

  it("writes again once the path can be written, after retryMs", async () => {
    const blocker = join(folder, "logs");
    await writeFile(blocker, "not a folder yet");
    const warnings: string[] = [];
    const file = join(blocker, "audit.jsonl");
    log = await createAuditLog({
      file,
      maxBytes: 0,
      retryMs: 0,
      onWarning: (message) => warnings.push(message),
    });
    log.record(event(1));
    await log.flush();
    expect(await waitUntil(() => log?.dropped === 1)).toBe(true);
    // Still blocked: the retry fails again, counted but not warned about again.
    log.record(event(2));
    await log.flush();
    expect(await waitUntil(() => log?.dropped === 2)).toBe(true);
    expect(warnings).toHaveLength(1);
    await rm(blocker);
    log.record(event(3));
    await log.flush();
    expect(log.written).toBe(1);
    await log.close();
    expect((await lines(file)).map((line) => line["job_id"])).toEqual(["job-0003"]);
    expect(log.dropped).toBe(2);
  });

  it("refuses bad sizes, file counts and retry times", async () => {
    await expect(createAuditLog({ file: join(folder, "a"), maxFiles: 1 })).rejects.toThrow(
      /maxFiles must be a whole number, at least 2/,
    );
    await expect(createAuditLog({ file: join(folder, "a"), maxBytes: -1 })).rejects.toThrow(
      /maxBytes/,
    );
    await expect(createAuditLog({ file: "" })).rejects.toThrow(/needs a file/);
  });

  it("only warns once for a path that cannot be created", async () => {
    const blocker = join(folder, "a-file");
    await writeFile(blocker, "not a folder");
    const warnings: string[] = [];
    log = await createAuditLog({
      file: join(blocker, "audit.jsonl"),
      onWarning: (message) => warnings.push(message),
    });
    log.record(event(1));
    log.record(event(2));
    await log.flush();
    expect(await waitUntil(() => log?.dropped === 2)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot be written \((ENOTDIR|EEXIST)\)/);
  });
});
