import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BlenderAdapter, createBlenderAdapter } from "@dcc/blender";
import type { TestClient } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute, processAlive, until } from "./__fixtures__/mcp-helpers.ts";

const token = "readiness-token-0123456789";

interface Readiness {
  status: number;
  body: { status: string; reasons?: string[]; adapters: Array<Record<string, string>> };
}

describeWithBlender(`readiness while Blender restarts`, { timeout: 600_000 }, () => {
  let root: string;
  let gate: string;
  let launches: string;
  let adapter: BlenderAdapter;
  let server: ReferenceServer;
  let client: TestClient;

  const readyz = async (): Promise<Readiness> => {
    const response = await fetch(new URL("/readyz", server.url), {
      headers: { Authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as Readiness["body"] };
  };

  beforeAll(async () => {
    assertBlender();
    root = mkdtempSync(join(tmpdir(), "dcc-readiness-"));
    const dataDir = join(root, "data");
    mkdirSync(dataDir);
    // Blender, launched through a script that holds a launch while the gate file exists: the
    // test then sees the restart for as long as it needs, on a fast machine or a slow one.
    gate = join(root, "hold-launch");
    launches = join(root, "launches");
    const blender = join(root, "blender");
    writeFileSync(
      blender,
      `#!/bin/sh\necho launch >> '${launches}'\nn=0\nwhile [ -e '${gate}' ] && [ $n -lt 6000 ]; do sleep 0.05; n=$((n+1)); done\nexec blender "$@"\n`,
    );
    chmodSync(blender, 0o755);
    // The launch script and its gate live outside what the OS sandbox shows Blender.
    adapter = createBlenderAdapter({ dataDir, blenderBin: blender, sandbox: "off" });
    server = await createReferenceServer({ port: 0, token, adapters: [adapter] });
    client = await connectHttp(server.url as string, { Authorization: `Bearer ${token}` });
  });
  afterAll(async () => {
    if (gate !== undefined) rmSync(gate, { force: true });
    await client?.close();
    await server?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("answers 503 with the reason while Blender restarts, keeps its scripts, and 200 once it is back", async () => {
    expect(await readyz()).toMatchObject({ status: 200, body: { status: "ready" } });
    const unauthorized = await fetch(new URL("/readyz", server.url));
    expect(unauthorized.status).toBe(401);

    const first = adapter.pid as number;
    writeFileSync(gate, "");
    process.kill(first, "SIGKILL");
    let seen: Readiness | undefined;
    await until(async () => {
      seen = await readyz();
      return seen.status === 503;
    }, 120_000);
    expect(seen?.body).toMatchObject({
      status: "not ready",
      reasons: ["blender: Blender exited; restarting"],
      adapters: [{ name: "blender", state: "restarting" }],
    });
    // Still 503 for as long as the new Blender is held: nothing flips readiness early.
    expect((await readyz()).status).toBe(503);

    // A script sent meanwhile is not refused: it waits for the new Blender, and its first
    // command is told that Blender was restarted since the last one.
    const during = execute(client, 'return dispatch("data.get", { path: "scenes[0].name" });');
    rmSync(gate);
    const told = await during;
    expect(told["errorCode"]).not.toBe("HOST_UNAVAILABLE");
    expect(String(told["error"])).toMatch(/Blender exited, and it was restarted/);

    await until(async () => (await readyz()).status === 200, 180_000);
    expect(processAlive(first)).toBe(false);
    expect(adapter.pid).not.toBe(first);
    // Both launches went through the gated script.
    expect(readFileSync(launches, "utf8")).toBe("launch\nlaunch\n");
    expect(
      await execute(client, 'return dispatch("data.get", { path: "scenes[0].name" });'),
    ).toMatchObject({
      success: true,
      output: "Scene",
    });
  });
});
