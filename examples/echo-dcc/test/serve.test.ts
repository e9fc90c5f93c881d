// The example app as a user runs it: a separate Node process serving MCP over HTTP, driven by the
// official MCP client of each protocol revision.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { connectClient, revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterEach, describe, expect, it } from "vitest";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
let child: ChildProcess | undefined;
let client: TestClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => {});
  client = undefined;
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Resolves with the exit code, or undefined when the process has not exited within `ms`. */
function exitWithin(process: ChildProcess, ms: number): Promise<number | null | undefined> {
  if (process.exitCode !== null) return Promise.resolve(process.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    process.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe.each(revisions)("the example app (%s)", { timeout: 180_000 }, (revision) => {
  it("serves the echo DCC over Streamable HTTP to the SDK client, and stops on SIGTERM", async () => {
    const server = spawn(
      process.execPath,
      ["--conditions=@dcc/source", "--import", "tsx", "src/serve.ts", "0"],
      { cwd: exampleDir, stdio: ["ignore", "ignore", "pipe"] },
    );
    child = server;
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 120 s: ${stderr}`)), 120_000);
      server.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = /echo DCC at (http:\/\/\S+)/.exec(stderr)?.[1];
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      server.once("exit", () => reject(new Error(`exited early: ${stderr}`)));
    });

    ({ client } = await connectClient(revision, { kind: "http", url }));
    expect(client.protocolVersion()).toBe(revision);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["dcc_execute", "dcc_search"]);
    expect(client.getInstructions()).toContain("Find commands with dcc_search");

    const found = await client.callTool({
      name: "dcc_search",
      arguments: { query: "add a line of text" },
    });
    expect(
      (found.structuredContent as { results: Array<{ name: string }> }).results[0],
    ).toMatchObject({
      name: "say",
      signature: "say(flags: { text: string }): number",
      description: "Add a line of text to the echo log; returns how many lines it holds",
    });
    const ran = await client.callTool({
      name: "dcc_execute",
      arguments: {
        code: 'dispatch("say", { text: "hello" }); await dispatch("wait", 5); return { echoed: dispatch("echo", [1, "two"]), lines: dispatch("history") };',
      },
    });
    expect(ran.structuredContent).toMatchObject({
      success: true,
      output: { echoed: [1, "two"], lines: ["hello"] },
      message: "Script executed successfully on echo.",
    });
    await client.close();
    client = undefined;

    server.kill("SIGTERM");
    expect(await exitWithin(server, 30_000)).toBe(0);
  });
});
