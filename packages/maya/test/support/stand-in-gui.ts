// A stand-in interactive Maya (bin/maya-gui) as a child process: its main thread runs the idle
// queue, and plug-ins are loaded and unloaded by lines on its stdin.
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { spawnTied } from "@dcc/test-support";
import { standInMayaGui } from "./stand-in-paths.ts";

/** The running stand-in Maya. */
export interface StandInGui {
  readonly child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** Sends `load PATH` / `unload NAME` and waits for its `ok` (rejects on `failed`). */
  command(line: string): Promise<void>;
  /** Waits until its output from offset `from` on matches. */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
  close(): Promise<void>;
}

/** Starts the stand-in with `env` added, and waits for it to be ready. */
export async function startStandInGui(env: Record<string, string>): Promise<StandInGui> {
  // Killed with this test worker if it dies first.
  const child = spawnTied("python3", [standInMayaGui], {
    env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    text += chunk.toString("utf8");
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = once(child, "exit");
  const waitFor = (pattern: RegExp, from = 0): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = text.slice(from).match(pattern);
        if (match) {
          waiters.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiters.delete(check);
          reject(new Error(`the stand-in Maya exited before ${pattern}:\n${text}`));
        }
      };
      waiters.add(check);
      child.once("exit", check);
      check();
    });
  await waitFor(/STAND_IN ready/);
  return {
    child,
    output: () => text,
    waitFor,
    async command(line) {
      const before = text.length;
      child.stdin?.write(`${line}\n`);
      const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const match = await waitFor(new RegExp(`STAND_IN ${escaped} (ok|failed.*)`), before);
      if (match[1] !== "ok") throw new Error(`${line}: ${match[1]}\n${text}`);
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin?.end("quit\n");
        const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
