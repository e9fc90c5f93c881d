import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  connectClient,
  type Revision,
  revisions,
  type TestClient,
  type ToolResult,
} from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";
import { initializeBody } from "./__fixtures__/raw-http.ts";

const entry = fileURLToPath(new URL("./__fixtures__/stdio-entry.ts", import.meta.url));
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
let client: TestClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
});

/** This process's environment, as the string map a spawned server inherits. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined) env[name] = value;
  return env;
}

/** Resolves with the exit code, or kills the child and resolves "timeout" after `ms`. */
async function exitWithin(
  exited: Promise<number | null>,
  child: { kill(signal: NodeJS.Signals): boolean },
  ms: number,
): Promise<number | null | "timeout"> {
  const timeout = new Promise<"timeout">((resolve) =>
    setTimeout(() => resolve("timeout"), ms).unref(),
  );
  const outcome = await Promise.race([exited, timeout]);
  if (outcome === "timeout") child.kill("SIGKILL");
  return outcome;
}

async function spawnServer(
  revision: Revision,
  env: Record<string, string> = {},
): Promise<TestClient> {
  // The entry is run from the package root so that tsx and the source condition resolve.
  const connected = await connectClient(revision, {
    kind: "stdio",
    command: process.execPath,
    args: ["--conditions=@dcc/source", "--import", "tsx", entry],
    cwd: packageRoot,
    env: { ...inheritedEnv(), ...env },
  });
  client = connected.client;
  return client;
}

describe.each(revisions)("runStdioServer in a spawned process (%s)", (revision) => {
  it("serves both tools and runs scripts", async () => {
    const connected = await spawnServer(revision);
    const { tools } = await connected.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    const result = (await connected.callTool({
      name: "dcc_execute",
      arguments: {
        code: 'console.log("to logs, not stdout"); return dispatch("polySphere", { name: "s" });',
      },
    })) as ToolResult;
    expect(result.structuredContent).toMatchObject({ success: true, output: ["s", "sShape"] });
  }, 240_000);

  it("stops a cancelled script: no host command runs after the cancel", async () => {
    const connected = await spawnServer(revision);
    const abort = new AbortController();
    const call = connected.callTool(
      {
        name: "dcc_execute",
        arguments: {
          code: "for (;;) { dispatch('tick', {}); const until = Date.now() + 2; while (Date.now() < until) {} }",
        },
      },
      { signal: abort.signal },
    );
    // Settles as rejected once cancelled; a failure before that must not leave it unhandled.
    call.catch(() => {});
    const tickCount = async (): Promise<number> => {
      const result = (await connected.callTool({
        name: "dcc_execute",
        arguments: { code: "return dispatch('tick', {});" },
      })) as ToolResult;
      return result.structuredContent?.["output"] as number;
    };
    // The loop is running once a probe's tick lands after some of the loop's ticks.
    let probe = 0;
    expect(
      await waitUntilAsync(async () => {
        probe = await tickCount();
        return probe > 5;
      }),
    ).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    // After the cancel settles, ticks advance only by our own probes.
    const settle = await tickCount();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await tickCount()).toBe(settle + 1);
    expect(settle).toBeGreaterThan(probe);
  }, 240_000);

  it("streams progress and console lines, searches, and runs a job", async () => {
    const connected = await spawnServer(revision);
    const logs: Record<string, unknown>[] = [];
    connected.onLog((params) => logs.push(params));
    await connected.setLogLevel("info");
    const seen: number[] = [];
    const result = await connected.callTool(
      {
        name: "dcc_execute",
        arguments: {
          code: "for (let i = 1; i <= 5; i++) { progress(i, 5); dispatch('tick', {}); }\nconsole.log('done'); return 'ok';",
        },
      },
      { onprogress: (progress) => seen.push(progress.progress) },
    );
    expect(result.structuredContent).toMatchObject({ success: true, output: "ok" });
    // The last value may be dropped by the SDK client (see execute-call.test.ts); the order holds.
    expect(seen[0]).toBe(1);
    expect(Math.max(...seen)).toBeLessThanOrEqual(5);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
    expect(logs).toContainEqual({ level: "info", logger: "maya", data: "done" });
    const found = await connected.callTool({ name: "dcc_search", arguments: { query: "tick" } });
    const names = ((found.structuredContent?.["results"] ?? []) as Array<{ name: string }>).map(
      (hit) => hit.name,
    );
    expect(names).toContain("tick");
    const started = await connected.callTool({
      name: "dcc_execute",
      arguments: { code: "return 7;", async: true },
    });
    const jobId = started.structuredContent?.["job_id"] as string;
    let outcome: Record<string, unknown> | undefined;
    expect(
      await waitUntilAsync(async () => {
        outcome = (
          await connected.callTool({
            name: "dcc_execute",
            arguments: { job_id: jobId, job_action: "result" },
          })
        ).structuredContent;
        return outcome?.["output"] === 7;
      }),
    ).toBe(true);
    expect(outcome).toMatchObject({ success: true, output: 7 });
  }, 240_000);

  it("stores a script that only defines main and runs it with file_path and params", async () => {
    const root = await mkdtemp(join(tmpdir(), "bridge-stdio-scripts-"));
    try {
      const connected = await spawnServer(revision, { DCC_TEST_SCRIPTS_DIR: root });
      const stored = await connected.callTool({
        name: "dcc_execute",
        arguments: {
          code: "function main(count: number) {\n  return dispatch('polySphere', { name: 'ball' + count });\n}\n",
        },
      });
      const output = stored.structuredContent?.["output"] as { filePath: string; sha256: string };
      expect(output.filePath.startsWith(root)).toBe(true);
      const run = await connected.callTool({
        name: "dcc_execute",
        arguments: { file_path: output.filePath, params: { count: 2 }, sha256: output.sha256 },
      });
      expect(run.structuredContent).toMatchObject({
        success: true,
        output: ["ball2", "ball2Shape"],
      });
      await connected.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("runStdioServer and its stdin", () => {
  it("cancels the call in flight when stdin closes, then exits", async () => {
    const child = spawn(process.execPath, ["--conditions=@dcc/source", "--import", "tsx", entry], {
      cwd: packageRoot,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdin.write(`${initializeBody}\n`);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "dcc_execute",
        arguments: { code: "dispatch('block', {}); dispatch('tick', {});" },
      },
    });
    const deadline = Date.now() + 120_000;
    while (!stderr.includes("STARTED block") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(stderr).toContain("STARTED block");
    child.stdin.end();
    // "block" would hold for 10 s: the journal says whether the shutdown's cancel cut it short,
    // so the exit itself gets a hang guard only.
    expect(await exitWithin(exited, child, 120_000)).toBe(0);
    const journal = JSON.parse(/JOURNAL (.*)/.exec(stderr)?.[1] ?? "{}");
    expect(journal).toMatchObject({ blockSawCancel: true, calls: ["block"] });
  }, 240_000);

  it("exits cleanly when stdin closes", async () => {
    const child = spawn(process.execPath, ["--conditions=@dcc/source", "--import", "tsx", entry], {
      cwd: packageRoot,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    const answered = new Promise<string>((resolve) =>
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString())),
    );
    child.stdin.write(`${initializeBody}\n`);
    expect(await answered).toContain('"serverInfo"');
    child.stdin.end();
    expect(await exitWithin(exited, child, 120_000)).toBe(0);
  }, 240_000);
});

/** Polls until `predicate` holds; `ms` is a hang guard (a spawned server on a loaded machine is slow). */
async function waitUntilAsync(predicate: () => Promise<boolean>, ms = 120_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await predicate()) return true;
  }
  return false;
}
