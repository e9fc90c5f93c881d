import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { commandLineOf, descendantsOf, processAlive } from "./processes.ts";
import { spawnTied } from "./spawn-tied.ts";
import { waitFor } from "./wait-for.ts";

const parentScript = fileURLToPath(new URL("./__fixtures__/tied-parent.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
});

/** Resolves once the child has exited: its exit code or signal. */
function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Every process below `pid`, remembered for the clean-up of a failed test. */
function remember(pid: number): number[] {
  const below = descendantsOf(pid);
  started.push(pid, ...below);
  return below;
}

let parentOf: ChildProcess;

/**
 * Starts tied-parent.ts with `how`; resolves with the process it tied (the reaper, or the
 * command itself) and what runs below that.
 */
async function startParent(how: string): Promise<{ reaper: number; below: number[] }> {
  const args = ["--conditions=@dcc/source", "--import", "tsx", parentScript, how];
  parentOf = spawn(process.execPath, args, {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(parentOf.pid as number);
  let text = "";
  parentOf.stdout?.setEncoding("utf8");
  for await (const chunk of parentOf.stdout as AsyncIterable<string>) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  const { reaper } = JSON.parse(text) as { reaper: number };
  const sleeps = how === "tree-group" ? 3 : how === "tree" ? 1 : 0;
  let below: number[] = [];
  await waitFor(
    "what the parent tied starts",
    () => {
      below = descendantsOf(reaper);
      const asleep = below.filter((pid) => commandLineOf(pid).startsWith("sleep")).length;
      return asleep === sleeps && (how !== "exec" || commandLineOf(reaper).startsWith("sleep"));
    },
    30_000,
  );
  started.push(reaper, ...below);
  return { reaper, below };
}

describe.each([false, true])("spawnTied (tree: %s)", (tree) => {
  it("passes the command's output and exit code through", async () => {
    const child = spawnTied("/bin/sh", ["-c", "echo tied; exit 7"], { tree });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    expect(await exitOf(child)).toEqual({ code: 7, signal: null });
    expect(output).toBe("tied\n");
  });

  it("exits by the signal that ended the command, passing a signal on to it", async () => {
    const child = spawnTied("/bin/sh", ["-c", "echo up; exec sleep 600"], { stdio: "pipe", tree });
    await new Promise((resolve) => child.stdout?.once("data", resolve));
    const below = remember(child.pid as number);
    child.kill("SIGTERM");
    expect(await exitOf(child)).toEqual({ code: null, signal: "SIGTERM" });
    for (const pid of below) expect(processAlive(pid)).toBe(false);
  });

  it("ends with its parent when the parent is killed with SIGKILL", async () => {
    const { reaper, below } = await startParent(tree ? "tree" : "exec");
    expect(commandLineOf(reaper)).toMatch(tree ? /reaper\.py tree/ : /^sleep 603/);
    parentOf.kill("SIGKILL");
    await exitOf(parentOf);
    const what = `${[reaper, ...below].map(commandLineOf).join(", ")} end`;
    await waitFor(what, () => [reaper, ...below].every((pid) => !processAlive(pid)), 30_000);
  });
});

describe("spawnTied (tree: true)", () => {
  it("ends what the command left running when the command exits", async () => {
    const child = spawnTied("/bin/sh", ["-c", "sleep 600 & echo $!"], {
      tree: true,
      graceMs: 1000,
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    expect(await exitOf(child)).toEqual({ code: 0, signal: null });
    const orphan = Number.parseInt(output, 10);
    started.push(orphan);
    expect(orphan).toBeGreaterThan(0);
    await waitFor(`the orphaned sleep ${orphan} ends`, () => !processAlive(orphan), 30_000);
  });

  it("ends everything below it when its parent is killed with SIGKILL, even a process that left its group", async () => {
    const { reaper, below } = await startParent("tree-group");
    expect(below.filter((pid) => commandLineOf(pid).startsWith("sleep"))).toHaveLength(3);
    parentOf.kill("SIGKILL");
    await exitOf(parentOf);
    const what = `the reaper and ${below.map(commandLineOf).join(", ")} end`;
    await waitFor(what, () => [reaper, ...below].every((pid) => !processAlive(pid)), 30_000);
  });
});
