import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapterExecutor } from "@dcc/executor";
import { DccProcess } from "@dcc/link";
import {
  assertBlender,
  describeWithBlender,
  processAlive,
  processesOf,
  spawnTied,
  waitFor,
} from "@dcc/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BlenderNotFoundError, createBlenderAdapter } from "../src/index.ts";
import {
  type BlenderSession,
  busy,
  outputOf,
  startBlenderSession,
  watchMainThread,
} from "./support/blender-session.ts";
import { runSandboxTests } from "./support/bwrap-available.ts";
import { killBlender } from "./support/kill-blender.ts";

describe("a missing Blender", () => {
  it("refuses to start, naming where it looked and how to install Blender", async () => {
    const adapter = createBlenderAdapter({
      dataDir: mkdtempSync(join(tmpdir(), "dcc-blender-data-")),
      blenderBin: "/nonexistent/blender",
    });
    const started = adapter.start?.({ signal: new AbortController().signal, reportHost: () => {} });
    await expect(started).rejects.toBeInstanceOf(BlenderNotFoundError);
    await expect(started).rejects.toThrow(/\/nonexistent\/blender.*apt-get install -y blender/);
    await adapter.close?.();
    rmSync(adapter.dataDir, { recursive: true, force: true });
  });

  it("looks on PATH when no executable is named", async () => {
    const adapter = createBlenderAdapter({
      dataDir: mkdtempSync(join(tmpdir(), "dcc-blender-data-")),
    });
    const path = process.env["PATH"];
    const bin = process.env["BLENDER_BIN"];
    process.env["PATH"] = "/nonexistent-a:/nonexistent-b";
    delete process.env["BLENDER_BIN"];
    try {
      await expect(
        adapter.start?.({ signal: new AbortController().signal, reportHost: () => {} }),
      ).rejects.toThrow(/\/nonexistent-a\/blender, \/nonexistent-b\/blender/);
    } finally {
      process.env["PATH"] = path;
      if (bin !== undefined) process.env["BLENDER_BIN"] = bin;
    }
    rmSync(adapter.dataDir, { recursive: true, force: true });
  });
});

describeWithBlender("Blender killed mid-script", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    // The factory-scene restart: blender-recovery.test.ts covers the restore of a recovery copy.
    session = await startBlenderSession({ recovery: false });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("throws a catchable HOST_GONE, restarts Blender with its start-up scene, and serves the next call", async () => {
    const first = session.adapter.pid as number;
    let cubes = 0;
    const running = session.run(
      `
      for (let i = 0; i < 100000; i++) {
        try { dispatch("mesh.primitive_cube_add", { location: [i, 0, 0] }); console.log("cube", i); }
        catch (e) {
          return { code: e.code, message: e.message, completion: e.completion, cubes: i,
                   after: dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort() };
        }
      }
      return "never interrupted";`,
      { onLog: () => void cubes++ },
    );
    // Any moment in the loop will do: it would run for many minutes.
    await waitFor("a few cubes", () => cubes >= 3, 120_000);
    killBlender(first);
    const result = await running;
    expect(result).toMatchObject({
      success: true,
      output: {
        code: "HOST_GONE",
        // Killed mid-call, or between two calls: the next one never started.
        completion: expect.stringMatching(/^(unknown|not_started)$/),
        after: ["Camera", "Cube", "Light"],
      },
    });
    const message = outputOf<{ message: string }>(result).message;
    expect(message).toMatch(/Blender exited/);
    expect(message).toMatch(/restarted with its factory start-up scene/);
    expect(session.adapter.pid).not.toBe(first);
    expect(session.adapter.launches).toBe(2);
    expect(
      await session.run(`return dispatch("mesh.primitive_cube_add", {}).result;`),
    ).toMatchObject({
      success: true,
      output: ["FINISHED"],
    });
  });

  it("gives reads on the sandbox's own connection the same HOST_GONE when Blender dies", async () => {
    const first = session.adapter.pid as number;
    let reads = 0;
    const { watched, onMain } = watchMainThread(session.adapter);
    const executor = createAdapterExecutor(watched);
    const running = executor.execute(
      `
      for (let i = 0; i < 10000000; i++) {
        try { dispatch("data.get", { path: "scenes[0].frame_current" }); if (i % 100 === 0) console.log("read", i); }
        catch (e) {
          return { code: e.code, message: e.message, reads: i,
                   after: dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort() };
        }
      }
      return "never interrupted";`,
      { timeoutSecs: 120, onLog: () => void reads++ },
    );
    await waitFor("a few hundred reads", () => reads >= 3, 120_000);
    // Until now every read went on the sandbox's own connection.
    expect(onMain).toEqual([]);
    killBlender(first);
    const result = await running.finally(() => executor.close());
    expect(result).toMatchObject({
      success: true,
      output: { code: "HOST_GONE", after: ["Camera", "Cube", "Light"] },
    });
    const message = outputOf<{ message: string }>(result).message;
    expect(message).toMatch(/Blender exited/);
    expect(message).toMatch(/restarted with its factory start-up scene/);
    expect(session.adapter.pid).not.toBe(first);
    // The read that met the dead connection went to the main thread (a read begins no
    // transaction), where the restarted Blender's notice answered it; the catch's list ran there.
    expect(onMain).toEqual(["data.get", "data.list"]);
  });

  it("restarts a Blender that dies between scripts", async () => {
    const pid = session.adapter.pid as number;
    const launches = session.adapter.launches;
    killBlender(pid);
    await waitFor(
      "a new Blender",
      () => session.adapter.launches === launches + 1 && session.adapter.pid !== pid,
      120_000,
    );
    // The first command after the restart is told, and runs nothing: the scene it would act
    // on is gone.
    const count = `try { return dispatch("data.list", { collection: "objects" }).length; }
      catch (e) { return { code: e.code, completion: e.completion, message: e.message }; }`;
    const told = await session.run(count);
    expect(told).toMatchObject({
      success: true,
      output: { code: "HOST_GONE", completion: "not_started" },
    });
    expect(outputOf<{ message: string }>(told).message).toMatch(
      /since the last command, Blender exited, and it was restarted with its factory start-up scene/,
    );
    expect(await session.run(count)).toMatchObject({ success: true, output: 3 });
  });
});

describeWithBlender("a host call that never returns", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    // Only this test lifts the rule, to get a call Blender cannot interrupt.
    session = await startBlenderSession({
      recovery: false, // the factory-scene restart, as above
      policy: { allow: ["python-scripts"] },
      callTimeoutMs: 5000,
      graceMs: 1000,
    });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("is ended by its deadline: Blender is ended and restarted, the script told so", async () => {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(session.dataDir, "hang.py"), "import time\ntime.sleep(3600)\n");
    const first = session.adapter.pid as number;
    const result = await session.run(`
      try { dispatch("script.python_file_run", { filepath: "hang.py" }); return "returned"; }
      catch (e) { return { code: e.code, message: e.message, completion: e.completion }; }`);
    expect(result).toMatchObject({
      success: true,
      output: { code: "LINK_TIMEOUT", completion: "unknown" },
    });
    expect(outputOf<{ message: string }>(result).message).toMatch(
      /terminated.*restarted with its factory start-up scene/s,
    );
    await waitFor("the old Blender to exit", () => !processAlive(first), 60_000);
    expect(
      await session.run(`return dispatch("data.list", { collection: "objects" }).length;`),
    ).toMatchObject({
      success: true,
      output: 3,
    });
  });

  it("tells the next script when Blender was ended for a command whose script had stopped", async () => {
    const { writeFileSync } = await import("node:fs");
    // The stuck command says when Blender runs it; the script is stopped only then, so the
    // command is surely in Blender when its caller goes, however slow the machine.
    const started = join(session.dataDir, "hang-started");
    writeFileSync(
      join(session.dataDir, "hang-marked.py"),
      `import time\nopen(${JSON.stringify(started)}, "w").close()\ntime.sleep(3600)\n`,
    );
    const first = session.adapter.pid as number;
    const controller = new AbortController();
    const running = session.run(
      `dispatch("script.python_file_run", { filepath: "hang-marked.py" }); return "returned";`,
      { signal: controller.signal },
    );
    await waitFor("Blender to run the stuck command", () => existsSync(started), 60_000);
    controller.abort("the script is stopped");
    expect(await running).toMatchObject({ success: false, errorCode: "CANCELLED" });
    await waitFor("the old Blender to exit", () => !processAlive(first), 60_000);
    const count = `try { return dispatch("data.list", { collection: "objects" }).length; }
      catch (e) { return { code: e.code, completion: e.completion, message: e.message }; }`;
    // Nobody waited for the stuck command's error, so the next command is told instead of
    // running on the new, empty scene as if nothing had happened. Until the stuck command has
    // settled on this side, the host is still busy.
    let told = await session.run(count);
    for (let tries = 0; tries < 600 && busy(told); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      told = await session.run(count);
    }
    expect(told).toMatchObject({
      success: true,
      output: { code: "HOST_GONE", completion: "not_started" },
    });
    expect(outputOf<{ message: string }>(told).message).toMatch(
      /restarted with its factory start-up scene/,
    );
    expect(await session.run(count)).toMatchObject({ success: true, output: 3 });
  });
});

describeWithBlender("strangers on Blender's socket", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it.each([
    ["garbage instead of a frame", Buffer.from("GET / HTTP/1.1\r\n\r\n")],
    ["an oversized frame", Buffer.from([0x7f, 0xff, 0xff, 0xff, 0x7b])],
    ["a hello with a wrong token", frameOf({ type: "hello", protocol: 1, token: "x".repeat(43) })],
  ])(
    "%s: Blender drops that connection, answers nothing, and keeps serving",
    async (_what, bytes) => {
      const pid = session.adapter.pid;
      const socket = connect({ path: join(session.adapter.sessionDir as string, "link.sock") });
      let received = 0;
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.on("error", () => undefined);
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write(bytes);
      await Promise.race([
        closed,
        new Promise((_resolve, reject) =>
          setTimeout(() => reject(new Error("Blender kept the connection open")), 60_000),
        ),
      ]);
      expect(received).toBe(0);
      expect(
        await session.run(`return dispatch("data.list", { collection: "cameras" }).length;`),
      ).toMatchObject({
        success: true,
        output: 1,
      });
      expect(session.adapter.pid).toBe(pid);
    },
  );
});

function frameOf(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

const parentScript = fileURLToPath(new URL("./fixtures/blender-parent.ts", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));

describeWithBlender("leftovers", () => {
  const leftovers: number[] = [];
  beforeAll(() => assertBlender());
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  });

  it("close() leaves no Blender, socket or folder", async () => {
    const session = await startBlenderSession();
    const sessionDir = session.adapter.sessionDir as string;
    const pid = session.adapter.pid as number;
    expect(existsSync(sessionDir)).toBe(true);
    await session.close();
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(sessionDir)).toBe(false);
    expect(processesOf(sessionDir)).toEqual([]);
  });

  /** Starts blender-parent.ts; resolves with it and Blender's session folder. */
  const startParent = async (window: string, sandbox: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-blender-data-"));
    // Killed with this worker if the worker dies first; the test kills it itself otherwise.
    const parent = spawnTied(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", parentScript, dataDir, window, sandbox],
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
    return { parent, dataDir, sessionDir };
  };

  it.each(["none", "xvfb"] as const)(
    "a SIGKILLed server leaves no Blender or folder (window: %s, no sandbox: the watchdog)",
    async (window) => {
      const { parent, dataDir, sessionDir } = await startParent(window, "off");
      const hosts = processesOf(sessionDir);
      leftovers.push(...hosts);
      expect(hosts.length).toBeGreaterThan(0);
      parent.kill("SIGKILL");
      await waitFor("Blender to exit", () => processesOf(sessionDir).length === 0, 60_000);
      if (window === "none") {
        await waitFor("its folder to go", () => !existsSync(sessionDir), 60_000);
      } else {
        // Under Xvfb the X server may go first, and Blender with it before its watchdog removes
        // the folder: then the next launch sweeps it (as after a sandboxed Blender, below).
        await waitFor("its folder to go", () => !existsSync(sessionDir), 20_000).catch(
          () => undefined,
        );
        const next = new DccProcess({ command: "/nonexistent/next-launch", sandbox: "off" });
        await expect(next.start()).rejects.toMatchObject({ code: "LAUNCH_FAILED" });
        await next.close();
        expect(existsSync(sessionDir)).toBe(false);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  );

  it.runIf(runSandboxTests).each(["none", "xvfb"] as const)(
    "a SIGKILLed server leaves no Blender (window: %s, sandboxed); the next launch sweeps its folder",
    async (window) => {
      const { parent, dataDir, sessionDir } = await startParent(window, "on");
      const hosts = processesOf(sessionDir);
      leftovers.push(...hosts);
      expect(hosts.length).toBeGreaterThan(0);
      parent.kill("SIGKILL");
      // --die-with-parent: the kernel ends the sandbox (Xvfb included) with the server.
      await waitFor("Blender to exit", () => processesOf(sessionDir).length === 0, 60_000);
      await waitFor(
        "the server to be reaped",
        () => parent.exitCode !== null || parent.signalCode !== null,
        60_000,
      );
      // Nobody was left to remove the folder; any launch sweeps it first, even one that then
      // fails (or another test's launch did already: the link's own test, with a private base
      // folder, shows the folder is there until then).
      const next = new DccProcess({ command: "/nonexistent/next-launch", sandbox: "off" });
      await expect(next.start()).rejects.toMatchObject({ code: "LAUNCH_FAILED" });
      await next.close();
      expect(existsSync(sessionDir)).toBe(false);
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
});
