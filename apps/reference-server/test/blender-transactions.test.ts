import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestClient } from "@dcc/mcp-test-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute } from "./__fixtures__/mcp-helpers.ts";

const hasBlender = spawnSync("blender", ["--version"], { timeout: 60_000 }).status === 0;
const requireBlender = process.env["DCC_REQUIRE_BLENDER"] === "1";

const objects = 'return dispatch("data.list", { collection: "objects" });';

describe.runIf(hasBlender || requireBlender)(
  "scripts are transactions on a real Blender over MCP",
  { timeout: 300_000 },
  () => {
    let server: ReferenceServer;
    let client: TestClient;
    let dataDir: string;
    beforeAll(async () => {
      if (!hasBlender) throw new Error("DCC_REQUIRE_BLENDER=1 but Blender cannot run");
      dataDir = mkdtempSync(join(tmpdir(), "dcc-blender-txn-"));
      server = await createReferenceServer({ port: 0, dcc: ["blender"], dataDir });
      client = await connectHttp(server.url as string);
    }, 300_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    });

    it("rolls back a script that adds objects then throws, and one ed.undo takes back a successful one", async () => {
      const before = (await execute(client, objects)).output;
      const failed = await execute(
        client,
        'dispatch("mesh.primitive_uv_sphere_add", { location: [3, 0, 0] }); dispatch("mesh.primitive_cube_add", { location: [6, 0, 0] }); throw new Error("late");',
      );
      expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
      expect((await execute(client, objects)).output).toEqual(before);

      const made = await execute(
        client,
        'dispatch("mesh.primitive_uv_sphere_add", { location: [3, 0, 0] });\ndispatch("mesh.primitive_cone_add", { location: [6, 0, 0] }); return 1;',
      );
      expect(made).toMatchObject({
        success: true,
        transaction: {
          rolledBack: false,
          undoStep:
            'dcc_execute: dispatch("mesh.primitive_uv_sphere_add", { location: [3, 0, 0] });',
        },
      });
      const after = (await execute(client, objects)).output as unknown[];
      expect(after.length).toBe((before as unknown[]).length + 2);
      const undone = await execute(client, 'return dispatch("ed.undo");');
      expect(undone.success).toBe(true);
      expect((await execute(client, objects)).output).toEqual(before);
    });

    it("keeps a failed script's changes with keep_partial", async () => {
      const before = (await execute(client, objects)).output as unknown[];
      const kept = await execute(
        client,
        'dispatch("mesh.primitive_cube_add", { location: [9, 0, 0] }); throw new Error("late");',
        { keep_partial: true },
      );
      expect(kept).toMatchObject({
        success: false,
        rollback: { rolledBack: false, reason: "kept" },
      });
      expect(((await execute(client, objects)).output as unknown[]).length).toBe(before.length + 1);
    });
  },
);
