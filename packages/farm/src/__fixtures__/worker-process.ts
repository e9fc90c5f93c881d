// Runs dcc-farm-worker from source as a child process, with short lock times for tests.
import type { ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnTied } from "@dcc/test-support";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A worker child process. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Settles when it has exited. */
  exited: Promise<void>;
  /** SIGTERM, then SIGKILL after 20 s; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Starts a worker on `redisUrl` (a Maya one unless `extra` names `--dcc`), with `env` over this
 * process's environment, and waits (up to 240 s, a loaded machine) until ready.
 */
export async function startWorker(
  redisUrl: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  // Killed with this test worker if it dies first (its DCCs watch the farm worker in turn).
  const child = spawnTied(
    process.execPath,
    [
      "--conditions=@dcc/source",
      "--import",
      "tsx",
      "src/cli.ts",
      ...(extra.includes("--dcc") ? [] : ["--dcc", "maya"]),
      "--redis",
      redisUrl,
      // Short enough that a killed worker's job is found within seconds, long enough that a
      // loaded machine's late lock renewal is not taken for a dead worker.
      "--lock-duration-ms",
      "15000",
      "--stalled-interval-ms",
      "2000",
      ...extra,
    ],
    { cwd: packageDir, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 240_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready, pool")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}): ${output}`));
    });
  });
  return {
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** How a worker process that was expected to refuse to start ended. */
export interface RefusedStart {
  /** Its exit code (null when a signal ended it). */
  code: number | null;
  /** What it wrote to stderr. */
  stderr: string;
}

/**
 * Runs dcc-farm-worker from source with exactly `args` and `env` over this process's
 * environment, and waits (up to 240 s, a loaded machine; then it is killed) until it exits. For
 * flags it must refuse; a worker that reports ready is stopped and the test told so.
 */
export async function runRefusedWorker(
  args: string[],
  env: Record<string, string> = {},
): Promise<RefusedStart> {
  const child = spawnTied(
    process.execPath,
    ["--conditions=@dcc/source", "--import", "tsx", "src/cli.ts", ...args],
    { cwd: packageDir, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes("ready, pool")) child.kill("SIGTERM");
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  // `close`, not `exit`: by then all of stderr has been read.
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  return { code, stderr };
}
