// A script owns exactly its own part of Blender's undo history, over MCP with a real headless
// Blender: rollbacks no script can escape or push past, no undo steps for reads and captures,
// undo scripts that walk back, and change reports of the net effect under final names.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestClient } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute } from "./__fixtures__/mcp-helpers.ts";

const objects =
  'return dispatch("data.list", { collection: "objects" }).map((o) => o.name).sort();';

describeWithBlender(
  "a script's undo history over MCP on a real Blender",
  { timeout: 300_000 },
  () => {
    let server: ReferenceServer;
    let client: TestClient;
    let dataDir: string;
    const names = async (): Promise<unknown> => (await execute(client, objects)).output;
    beforeAll(async () => {
      assertBlender();
      dataDir = mkdtempSync(join(tmpdir(), "dcc-blender-undo-"));
      server = await createReferenceServer({ port: 0, dcc: ["blender"], dataDir });
      client = await connectHttp(server.url as string);
    }, 300_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
      if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
    });

    it("keeps earlier work through a failing script's undos and pushes, and undo scripts walk back", async () => {
      const start = await names();
      await execute(
        client,
        'dispatch("mesh.primitive_cube_add", { location: [3, 0, 0] }); return 1;',
      );
      await execute(
        client,
        'dispatch("mesh.primitive_cone_add", { location: [6, 0, 0] }); return 1;',
      );
      const both = await names();
      expect(both).toEqual(["Camera", "Cone", "Cube", "Cube.001", "Light"]);

      // Reads and captures are no undo steps.
      const capture = await execute(
        client,
        'return dispatch("viewport.screenshot", { width: 32, height: 32 }).width;',
      );
      expect(capture).toMatchObject({ success: true, transaction: { reason: "nothing_to_undo" } });

      // A failing script that undid six times: its rollback brings both scripts back.
      const failed = await execute(
        client,
        'for (let i = 0; i < 6; i++) { try { dispatch("ed.undo"); } catch (e) {} } throw new Error("late");',
      );
      expect(failed).toMatchObject({ success: false, rollback: { rolledBack: true } });
      expect(await names()).toEqual(both);

      // A failing script that pushed its own undo step cannot keep what it made.
      const escaped = await execute(
        client,
        'dispatch("mesh.primitive_uv_sphere_add"); dispatch("ed.undo_push", { message: "x" }); throw new Error("late");',
      );
      expect(escaped).toMatchObject({ success: false, rollback: { rolledBack: true } });
      expect(await names()).toEqual(both);

      // Two undo scripts take back the two scripts; redo brings them back.
      await execute(client, 'return dispatch("ed.undo");');
      await execute(client, 'return dispatch("ed.undo");');
      expect(await names()).toEqual(start);
      await execute(client, 'dispatch("ed.redo"); return dispatch("ed.redo");');
      expect(await names()).toEqual(both);
    });

    it("reports the net change under final names, removals through data.call too", async () => {
      const result = await execute(
        client,
        `const made = dispatch("mesh.primitive_cube_add", { location: [0, 4, 0] }).active;
       dispatch("data.set", { path: \`objects["\${made}"].name\`, value: "Box" });
       dispatch("data.call", { path: "objects.remove", args: [{ $path: 'objects["Light"]' }] });
       return made;`,
      );
      expect(result).toMatchObject({ success: true });
      const changes = (result["stats"] as { changes: { created: string[]; removed: string[] } })
        .changes;
      expect(changes.created).toContain('objects["Box"]');
      expect(changes.created).not.toContain(`objects["${String(result.output)}"]`);
      expect(changes.removed).toEqual(['objects["Light"]']);
    });
  },
);
