// The example app as a user runs it: a Node process serving MCP over HTTP, its tiny DCC a real
// Python process behind @dcc/link, driven by the official MCP client end to end: a command, the
// DCC's errors, transactions, a capture, a cancel, and a SIGKILL of the Python side survived
// with the restart notice.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectClient, type TestClient, type ToolResult } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** True while the kernel has a live (not zombie) process `pid`. */
function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The server's stderr, and a wait for a line matching a pattern (a hang guard, not a timing). */
function watch(server: ChildProcess): {
  text(): string;
  waitFor(pattern: RegExp, what: string): Promise<RegExpExecArray>;
} {
  let stderr = "";
  const waiters = new Set<() => void>();
  server.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  return {
    text: () => stderr,
    waitFor: (pattern, what) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} within 120 s: ${stderr}`));
        }, 120_000);
        const check = (): void => {
          const found = pattern.exec(stderr);
          if (found === null) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
  };
}

function call(client: TestClient, code: string, signal?: AbortSignal): Promise<ToolResult> {
  return client.callTool(
    { name: "dcc_execute", arguments: { code } },
    signal === undefined ? {} : { signal },
  );
}

/** Runs a script and returns its structured outcome. */
async function run(client: TestClient, code: string): Promise<Outcome> {
  return (await call(client, code)).structuredContent as unknown as Outcome;
}

interface Outcome {
  success: boolean;
  output?: unknown;
  errorCode?: string;
  message?: string;
  error?: string;
  transaction?: unknown;
  rollback?: unknown;
}

describe("the linked example app", { timeout: 300_000 }, () => {
  it("serves the tiny DCC over MCP: commands, errors, undo, a capture, a cancel and a SIGKILL survived", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "dcc-tiny-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = spawn(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", "src/serve.ts", "0", dataDir],
      // Outside @dcc/link's OS sandbox: this test SIGKILLs the DCC by the pid it reports, which
      // in the sandbox's PID namespace is not this machine's; and `python3` may be a version
      // manager's shim, which the sandbox cannot follow.
      {
        cwd: exampleDir,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, DCC_SANDBOX: "off" },
      },
    );
    cleanups.push(() => {
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    });
    const log = watch(server);
    const url = (await log.waitFor(/tiny DCC at (http:\/\/\S+)/, "URL"))[1] as string;
    const { client } = await connectClient("2026-07-28", { kind: "http", url });
    cleanups.push(() => client.close().catch(() => undefined));

    // Search finds a command by what it does, with the signature from its spec.
    const found = await client.callTool({
      name: "dcc_search",
      arguments: { query: "create a sphere object" },
    });
    expect(
      (found.structuredContent as { results: Array<{ name: string; signature: string }> })
        .results[0],
    ).toMatchObject({ name: "scene.create", signature: expect.stringContaining("kind?:") });

    // A script of several commands; no args for scene.list.
    const made = await run(
      client,
      `dispatch("scene.create", { name: "box", size: 2 });
       dispatch("scene.create", { name: "ball", kind: "sphere" });
       return { list: dispatch("scene.list"), saved: dispatch("scene.save", { path: "out/scene.json" }), info: dispatch("scene.info") };`,
    );
    expect(made).toMatchObject({
      success: true,
      output: {
        list: [
          { name: "box", kind: "cube", size: 2 },
          { name: "ball", kind: "sphere", size: 1 },
        ],
        saved: { path: join("out", "scene.json") },
      },
      // One undo step, and the file it wrote as the script named it.
      transaction: {
        rolledBack: false,
        undoStep: expect.any(String),
        filesWritten: ["out/scene.json"],
      },
    });
    expect(existsSync(join(dataDir, "out", "scene.json"))).toBe(true);
    const firstPid = (made.output as { info: { pid: number } }).info.pid;

    // The DCC's own errors reach the script with their codes: caught, and uncaught.
    const caught = await run(
      client,
      `const codes = [];
       for (const [name, args] of [["scene.delete", { name: "nope" }], ["scene.create", { name: "box" }],
                                   ["scene.save", { path: "../outside.json" }], ["scene.create", { name: 3 }]]) {
         try { dispatch(name, args); } catch (e) { codes.push({ code: e.code, message: e.message, data: e.data }); }
       }
       return codes;`,
    );
    expect(caught.output).toEqual([
      {
        code: "NOT_FOUND",
        message: "no object named 'nope' (objects: box, ball)",
        data: { name: "nope" },
      },
      { code: "EXISTS", message: "an object named 'box' exists", data: { name: "box" } },
      {
        code: "POLICY",
        message: expect.stringContaining("path '../outside.json' (resolves to"),
        data: { rule: "data-folder", argument: "path" },
      },
      {
        code: "INVALID_ARGS",
        message: "scene.create: args.name must be string, got integer 3",
        data: { argument: "args.name" },
      },
    ]);
    const uncaught = await run(client, `dispatch("scene.delete", { name: "nope" });`);
    expect(uncaught).toMatchObject({ success: false, errorCode: "SCRIPT_ERROR" });
    expect(uncaught.error).toContain(
      "CommandError (NOT_FOUND, from scene.delete): no object named 'nope'",
    );
    expect(uncaught.rollback).toMatchObject({ rolledBack: false, reason: "nothing_to_undo" });

    // A script that fails after a change is undone as a whole.
    const undone = await run(
      client,
      `dispatch("scene.create", { name: "cone" }); dispatch("scene.delete", { name: "box" }); throw new Error("no");`,
    );
    expect(undone).toMatchObject({ success: false, rollback: { rolledBack: true } });
    const names = await run(client, `return dispatch("scene.list").map((item) => item.name);`);
    expect(names.output).toEqual(["box", "ball"]);

    // A capture is an image the MCP result carries: a bar per object, 4 pixels wide, 16 high.
    const captured = await call(client, `return dispatch("scene.capture");`);
    const image = captured.content.find((part) => part.type === "image");
    expect(image?.mimeType).toBe("image/png");
    const png = Buffer.from(image?.data ?? "", "base64");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([8, 16]);

    // A cancelled bake stops at its next frame; the DCC stays up.
    const controller = new AbortController();
    const baking = call(
      client,
      `return dispatch("scene.bake", { frames: 1000000 });`,
      controller.signal,
    );
    await log.waitFor(/tiny: baking/, "bake start");
    controller.abort("enough");
    await expect(baking).rejects.toThrow();
    let info: Outcome | undefined;
    for (let tries = 0; tries < 600; tries++) {
      info = await run(client, `return dispatch("scene.info");`);
      if ((info.output as { cancelled?: number } | undefined)?.cancelled === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(info?.output).toEqual({ pid: firstPid, objects: 2, cancelled: 1 });

    // A SIGKILL of the Python side: once the kit has restarted it, the next command is told.
    process.kill(firstPid, "SIGKILL");
    await log.waitFor(/tiny DCC restart: \{"type":"restart","launches":2\}/, "restart");
    const told = await run(
      client,
      `try { return dispatch("scene.list"); } catch (e) { return { code: e.code, completion: e.completion, message: e.message }; }`,
    );
    expect(told.output).toEqual({
      code: "HOST_GONE",
      completion: "not_started",
      message:
        "scene.list did not run: since the last command, TinyDCC exited, and it was restarted with an empty scene. Run it again to go on.",
    });
    const after = await run(client, `return dispatch("scene.info");`);
    expect(after).toMatchObject({ success: true, output: { objects: 0, cancelled: 0 } });
    const secondPid = (after.output as { pid: number }).pid;
    expect(secondPid).not.toBe(firstPid);
    expect(processAlive(firstPid)).toBe(false);

    // SIGTERM stops the app and its DCC.
    await client.close();
    server.kill("SIGTERM");
    if (server.exitCode === null) await new Promise((resolve) => server.once("exit", resolve));
    expect(server.exitCode).toBe(0);
    expect(processAlive(secondPid)).toBe(false);
  });
});
