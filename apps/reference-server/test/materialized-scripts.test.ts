import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { revisions, type TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute } from "./__fixtures__/mcp-helpers.ts";

const rowOfSpheres = [
  "function main(count: number, spacing: number = 2, prefix: string = 'ball') {",
  "  const names = [];",
  "  for (let i = 0; i < count; i++) {",
  "    names.push(dispatch('polySphere', { name: prefix + (i + 1), position: [i * spacing, 0, 0] })[0]);",
  "  }",
  "  return names;",
  "}",
].join("\n");

describe.each(revisions)("materialized scripts through dcc_execute (%s)", (revision) => {
  let server: ReferenceServer;
  let client: TestClient;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "dcc-e2e-scripts-"));
    server = await createReferenceServer({
      port: 0,
      dataDir: join(root, "scenes"),
      scriptsDir: join(root, "scripts"),
    });
    client = await connectHttp(server.url as string, undefined, revision);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("stores a script that only defines main, then runs it with file_path and params", async () => {
    await execute(client, 'dispatch("file", { new: true, force: true }); return null;');
    const stored = await execute(client, rowOfSpheres);
    expect(stored.success, JSON.stringify(stored)).toBe(true);
    const context = stored["context"] as { materialized_script: Record<string, unknown> };
    const script = context.materialized_script;
    const filePath = script["filePath"] as string;
    expect(filePath.startsWith(join(root, "scripts"))).toBe(true);
    expect(script["parametersSchema"]).toMatchObject({
      type: "object",
      properties: {
        count: { type: "number" },
        spacing: { type: "number", default: 2 },
        prefix: { type: "string", default: "ball" },
      },
      required: ["count"],
    });

    const ran = await execute(client, "", {
      code: undefined,
      file_path: filePath,
      params: { count: 3 },
    });
    expect(ran, JSON.stringify(ran)).toMatchObject({
      success: true,
      output: ["ball1", "ball2", "ball3"],
    });
    const moved = await execute(client, "return dispatch('getAttr', ['ball3.translateX']);");
    expect(moved.output).toBe(4);
  });

  it("rejects bad params with every failing field, and paths outside the scripts folder", async () => {
    const stored = await execute(client, rowOfSpheres);
    const script = (stored["context"] as { materialized_script: Record<string, unknown> })
      .materialized_script;
    const filePath = script["filePath"] as string;
    const bad = await execute(client, "", {
      code: undefined,
      file_path: filePath,
      params: { spacing: "wide", extra: 1 },
    });
    expect(bad).toMatchObject({
      success: false,
      message: "Script parameters are invalid on maya.",
    });
    expect(String(bad["error"])).toMatch(/count/);
    expect(String(bad["error"])).toMatch(/spacing/);

    const outside = await execute(client, "", {
      code: undefined,
      file_path: join(root, "scenes", "..", "..", "etc", "passwd"),
      params: {},
    });
    expect(outside).toMatchObject({ success: false });
    expect(String(outside["error"])).toMatch(/outside/i);
  });
});
