// Starts a throwaway redis-server on loopback (free port, temp folder, no persistence) for a test.
import { type ChildProcess, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnTied } from "@dcc/test-support";

/** The install command named in skipped tests' titles. */
export const redisInstall = "apt-get install -y redis-server";

/** True when `redis-server` is on the PATH. */
export const redisAvailable: boolean = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** True when Redis tests must fail rather than skip without Redis (`DCC_REQUIRE_REDIS=1`). */
export const redisRequired: boolean = process.env["DCC_REQUIRE_REDIS"] === "1";

/** Whether the Redis suites run: with a redis-server, or when required (they then fail). */
export const redisTestsRun: boolean = redisAvailable || redisRequired;

/** A suite's title, marked as skipped with the install command when its suite does not run. */
export function redisTitle(name: string): string {
  return redisTestsRun ? name : `${name} (skipped: ${redisInstall})`;
}

/** Throws, failing the suite, when Redis is required but missing. Call in `beforeAll`. */
export function assertRedis(): void {
  if (!redisAvailable)
    throw new Error(`DCC_REQUIRE_REDIS=1 but redis-server is missing: ${redisInstall}`);
}

/** A running redis-server. */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts redis-server (with `password`, one that requires it) and waits (up to 30 s) until it accepts connections. The free port it
 * picks can be taken by another process before redis binds it (tests of other worktrees run on
 * the same machine), so a failed bind tries a new port, a few times.
 */
export async function startRedis(options: { password?: string } = {}): Promise<TestRedis> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisOnce(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
    }
  }
}

/** redis-server could not bind the port it was given. */
class PortTakenError extends Error {
  override readonly name = "PortTakenError";
}

async function startRedisOnce(options: { password?: string }): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "dcc-farm-redis-"));
  const port = await freePort();
  // Killed with this worker if the worker dies first.
  const child: ChildProcess = spawnTied(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      // A password, for tests of how one reaches the connection (never on a real command line).
      ...(options.password === undefined ? [] : ["--requirepass", options.password]),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start: ${output}`)),
      30_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    // "close", not "exit": the output that says why is complete only once the pipes closed.
    child.once("close", (code) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      const message = `redis-server exited (${code}): ${output}`;
      reject(
        /address already in use/i.test(output) ? new PortTakenError(message) : new Error(message),
      );
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
