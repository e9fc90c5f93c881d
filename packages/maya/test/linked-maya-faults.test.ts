// Faults of a real Maya, played by the stand-in: a crash mid-script, a command stuck past its
// deadline, a cancelled script whose command is stuck, and nothing left after close or after a
// SIGKILL of the server.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processAlive, processesOf, spawnTied, waitFor } from "@dcc/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

const caught = (code: string): string =>
  `try { ${code}; return "returned"; } catch (e) { return { code: e.code, completion: e.completion, message: e.message }; }`;

describe("a crash mid-script", () => {
  let session: MayaSession;
  beforeAll(async () => {
    session = await startMayaSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("throws a catchable HOST_GONE with completion unknown, restarts Maya, and serves the next script", async () => {
    const first = session.adapter.pid as number;
    const result = await session.run(`
      dispatch("polyCube", { name: "before" });
      ${caught('dispatch("polySphere", { name: "stand_in_crash" })')}`);
    expect(result).toMatchObject({
      success: true,
      output: { code: "HOST_GONE", completion: "unknown" },
    });
    await waitFor("the crashed Maya to be gone", () => !processAlive(first));
    const next = await session.run('return dispatch("ls", { type: "transform" });');
    expect(next).toMatchObject({ success: true, output: [] });
    expect(session.adapter.pid).not.toBe(first);
    expect(session.adapter.launches).toBe(2);
  });
});

describe("a stuck command", () => {
  let session: MayaSession;
  beforeAll(async () => {
    // Only the command's own deadline can end it: the script's timeout is far longer.
    session = await startMayaSession({ callTimeoutMs: 15_000, graceMs: 500 });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("is ended at its deadline: Maya is ended and restarted, the script told completion unknown", async () => {
    const first = session.adapter.pid as number;
    const result = await session.run(caught('dispatch("polySphere", { name: "stand_in_hang" })'), {
      timeoutSecs: 240,
    });
    expect(result).toMatchObject({
      success: true,
      output: { code: "LINK_TIMEOUT", completion: "unknown" },
    });
    await waitFor("the stuck Maya to be ended", () => !processAlive(first));
    const next = await session.run('return dispatch("polyCube", { name: "after" })[0];');
    expect(next).toMatchObject({ success: true, output: "after" });
  });
});

describe("cancelling a script whose command is stuck", () => {
  let session: MayaSession;
  beforeAll(async () => {
    session = await startMayaSession({ graceMs: 500 });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("stops the script with CANCELLED and ends the stuck Maya", async () => {
    const first = session.adapter.pid as number;
    const controller = new AbortController();
    const running = session.run(
      'dispatch("polySphere", { name: "stand_in_hang" }); return "returned";',
      { signal: controller.signal },
    );
    // Cancel only once the command is surely inside Maya, however slow the machine.
    await waitFor("Maya to be stuck in the command", () =>
      session.output().includes("stand-in Maya: stuck in a command"),
    );
    controller.abort("the user cancelled");
    expect(await running).toMatchObject({
      success: false,
      errorCode: "CANCELLED",
      completion: "unknown",
    });
    await waitFor("the stuck Maya to be ended", () => !processAlive(first));
  });
});

describe("nothing left behind", () => {
  const leftovers: number[] = [];
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  });

  it("close() leaves no Maya, socket or folder", async () => {
    const session = await startMayaSession();
    const sessionDir = session.adapter.sessionDir as string;
    const pid = session.adapter.pid as number;
    expect(existsSync(sessionDir)).toBe(true);
    await session.close();
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(sessionDir)).toBe(false);
    expect(processesOf(sessionDir)).toEqual([]);
  });

  it("a SIGKILLed server leaves no Maya or folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-maya-data-"));
    const packageDir = fileURLToPath(new URL("..", import.meta.url));
    // Killed with this worker if the worker dies first; the test kills it itself otherwise.
    const parent = spawnTied(
      process.execPath,
      [
        "--conditions=@dcc/source",
        "--import",
        "tsx",
        fileURLToPath(new URL("./fixtures/maya-parent.ts", import.meta.url)),
        dataDir,
      ],
      { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] },
    );
    leftovers.push(parent.pid as number);
    let text = "";
    parent.stdout?.setEncoding("utf8");
    for await (const chunk of parent.stdout as AsyncIterable<string>) {
      text += chunk;
      if (text.includes("\n")) break;
    }
    const { sessionDir } = JSON.parse(text) as { pid: number; sessionDir: string };
    const hosts = processesOf(sessionDir);
    leftovers.push(...hosts);
    expect(hosts.length).toBeGreaterThan(0);
    parent.kill("SIGKILL");
    await waitFor("Maya to exit", () => processesOf(sessionDir).length === 0);
    await waitFor("its folder to go", () => !existsSync(sessionDir));
    rmSync(dataDir, { recursive: true, force: true });
  });
});
