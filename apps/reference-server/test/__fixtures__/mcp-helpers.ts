import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  type CallOptions,
  connectClient,
  type Revision,
  type TestClient,
} from "@dcc/mcp-test-clients";
import { spawnTied } from "@dcc/test-support";

/** The app folder (where `src/cli.ts` lives). */
export const appDir: string = fileURLToPath(new URL("../..", import.meta.url));

/** Node arguments that run the CLI from source: the source condition and tsx for `.ts`. */
export const cliNodeArgs: string[] = ["--conditions=@dcc/source", "--import", "tsx", "src/cli.ts"];

/** Connects an SDK client of `revision` (default 2025-11-25) over Streamable HTTP. */
export async function connectHttp(
  url: string,
  headers?: Record<string, string>,
  revision: Revision = "2025-11-25",
): Promise<TestClient> {
  return (
    await connectClient(revision, {
      kind: "http",
      url,
      ...(headers === undefined ? {} : { headers }),
    })
  ).client;
}

/** The structured result of one `dcc_execute` call. */
export type ExecuteOutcome = Record<string, unknown> & { success: boolean; output?: unknown };

/** Calls `dcc_execute` and returns its structured content. */
export async function execute(
  client: TestClient,
  code: string,
  extra: Record<string, unknown> = {},
  options?: CallOptions,
): Promise<ExecuteOutcome> {
  const result = await client.callTool(
    { name: "dcc_execute", arguments: { code, ...extra } },
    options,
  );
  return result.structuredContent as ExecuteOutcome;
}

/** Calls `dcc_search` and returns its structured content. */
export async function search(
  client: TestClient,
  query: string,
  limit?: number,
): Promise<{ results: Array<{ name: string }> }> {
  const result = await client.callTool({
    name: "dcc_search",
    arguments: limit === undefined ? { query } : { query, limit },
  });
  return result.structuredContent as { results: Array<{ name: string }> };
}

/** Waits (bounded) until `predicate` returns true. */
export async function until(
  predicate: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A CLI process started from source, with its stderr collected. */
export interface CliProcess {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Spawns the CLI with `args`, killed with this worker if the worker dies first. */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawnTied(process.execPath, [...cliNodeArgs, ...args], {
    cwd: appDir,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return { child, stderr: () => text, exited };
}

/** Waits for the CLI's start-up line and returns the URL in it. */
export async function startupUrl(cli: CliProcess, timeoutMs = 240_000): Promise<string> {
  let url: string | undefined;
  await until(() => {
    url = /MCP at (http:\/\/\S+)/.exec(cli.stderr())?.[1];
    if (cli.child.exitCode !== null) throw new Error(`CLI exited early: ${cli.stderr()}`);
    return url !== undefined;
  }, timeoutMs);
  return url as string;
}

/** Sends a signal and waits (bounded) for the exit code. */
export async function stopCli(
  cli: CliProcess,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<number | null> {
  if (cli.child.exitCode !== null) return cli.child.exitCode;
  cli.child.kill(signal);
  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 10_000));
  const code = await Promise.race([cli.exited, timeout]);
  if (code === "timeout") {
    cli.child.kill("SIGKILL");
    throw new Error(`CLI did not exit after ${signal}: ${cli.stderr()}`);
  }
  return code;
}

/** Whether a process with this id exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
