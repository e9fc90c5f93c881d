import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assertBlender,
  commandLineOf,
  describeWithBlender,
  processAlive,
  processesOf,
  spawnTied,
  waitFor,
} from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";

const parentScript = fileURLToPath(new URL("./support/worker-like-parent.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));

// A test worker killed mid-run (a stopped CI job, a crash) must take every process it started
// with it: each one inherits this marker, so what survives is found by it.
const marker = `DCC_LEFTOVER_TEST=${randomUUID()}`;
let folder: string;
let parent: ChildProcess | undefined;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "dcc-blender-leftovers-"));
});
afterAll(() => {
  for (const pid of processesOf(marker)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  if (parent?.pid !== undefined && processAlive(parent.pid)) parent.kill("SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

describeWithBlender("a test worker killed with SIGKILL", () => {
  it("leaves nothing running: launched Blenders (headless, under Xvfb, sandboxed or not) and an interactive one under xvfb-run", async () => {
    assertBlender();
    const [name, value] = marker.split("=") as [string, string];
    // Tied in place (its pid stays its own): only this worker's death would end it that way.
    parent = spawnTied(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", parentScript, folder],
      {
        cwd: packageDir,
        env: { ...process.env, [name]: value, TMPDIR: folder },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let text = "";
    parent.stdout?.setEncoding("utf8");
    for await (const chunk of parent.stdout as AsyncIterable<string>) {
      text += chunk;
      if (text.includes("\n")) break;
    }
    expect(JSON.parse(text)).toMatchObject({ interactive: expect.any(Number) });
    // What it started: 3 launched Blenders, an interactive one, 3 X servers, their wrappers.
    await waitFor(
      "the interactive Blender to start",
      () =>
        processesOf(marker).filter((pid) => /(^|\/)blender\s/.test(commandLineOf(pid))).length > 0,
      120_000,
    );
    const started = processesOf(marker).filter((pid) => pid !== parent?.pid);
    const commands = started.map(commandLineOf);
    expect(commands.filter((command) => /blender/.test(command)).length).toBeGreaterThanOrEqual(4);
    expect(commands.filter((command) => /^Xvfb /.test(command)).length).toBeGreaterThanOrEqual(2);
    parent.kill("SIGKILL");
    await new Promise((resolve) => parent?.once("exit", resolve));
    const left = (): string =>
      processesOf(marker)
        .map((pid) => `${pid} ${commandLineOf(pid).slice(0, 120)}`)
        .join("\n");
    // Found by the marker, not by the pids seen above: on a busy machine pids are soon reused.
    await waitFor("nothing left running", () => left() === "", 90_000).catch((error: unknown) => {
      throw new Error(`still running after the worker died:\n${left()}`, { cause: error });
    });
  }, 300_000);
});
