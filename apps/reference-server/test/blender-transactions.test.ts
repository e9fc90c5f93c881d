import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestClient } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createReferenceServer, type ReferenceServer } from "../src/index.ts";
import { connectHttp, execute, until } from "./__fixtures__/mcp-helpers.ts";

const runFile = promisify(execFile);

const objects = 'return dispatch("data.list", { collection: "objects" });';

describeWithBlender(
  "scripts are transactions on a real Blender over MCP",
  { timeout: 300_000 },
  () => {
    let server: ReferenceServer;
    let client: TestClient;
    let dataDir: string;
    beforeAll(async () => {
      assertBlender();
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

    // The scene as a separate Blender reads it from a file saved in the data folder.
    const savedScene = async (name: string): Promise<string> => {
      const saved = await execute(
        client,
        `return dispatch("wm.save_as_mainfile", { filepath: "${name}", copy: true });`,
      );
      expect(saved.success).toBe(true);
      // Asynchronous: this process also runs the server, whose event loop must go on.
      const read = await runFile(
        "blender",
        [
          "-b",
          "--factory-startup",
          join(dataDir, name),
          "--python-expr",
          'import bpy, json; print("SCENE=" + json.dumps(sorted([o.name, o.type, [round(v, 4) for v in o.location]] for o in bpy.data.objects)))',
        ],
        { encoding: "utf8", timeout: 120_000 },
      );
      const line = read.stdout.split("\n").find((text) => text.startsWith("SCENE="));
      if (line === undefined) throw new Error(`no scene read from ${name}: ${read.stderr}`);
      return line;
    };

    it("rolls back a script cancelled mid-loop: the saved scene reads as before in another Blender", async () => {
      const before = await savedScene("before-cancel.blend");
      const controller = new AbortController();
      let reported = 0;
      const running = execute(
        client,
        'for (let i = 1; ; i++) { dispatch("mesh.primitive_cube_add", { location: [i * 3, 0, 0] }); progress(i); }',
        {},
        {
          signal: controller.signal,
          onprogress: (update) => {
            reported = update.progress;
            if (reported >= 5) controller.abort("test cancels");
          },
        },
      );
      await expect(running).rejects.toThrow();
      expect(reported).toBeGreaterThanOrEqual(5);
      // A cancelled script's rollback finishes before the next script reads the scene.
      expect(await savedScene("after-cancel.blend")).toBe(before);
    });

    it("rolls back a script past its timeout: the saved scene reads as before in another Blender", async () => {
      const before = await savedScene("before-timeout.blend");
      const timedOut = await execute(
        client,
        'dispatch("mesh.primitive_cube_add", { location: [5, 5, 0] }); dispatch("mesh.primitive_cone_add", { location: [8, 5, 0] }); for (;;) {}',
        { timeout_secs: 3 },
      );
      expect(timedOut).toMatchObject({ success: false, errorCode: "TIMEOUT" });
      expect(await savedScene("after-timeout.blend")).toBe(before);
    });

    it("lets another session compute and read while a script holds Blender; after a cancel, a read sees none of its objects", async () => {
      const other = await connectHttp(server.url as string);
      try {
        const before = (await execute(client, objects)).output as unknown[];
        const controller = new AbortController();
        let made = 0;
        const holder = execute(
          client,
          'for (let i = 1; ; i++) { dispatch("mesh.primitive_cube_add", { location: [i * 3, 9, 0] }); progress(i); }',
          {},
          {
            signal: controller.signal,
            onprogress: (update) => {
              made = update.progress;
            },
          },
        );
        holder.catch(() => {});
        await until(() => made >= 3);
        // Never calls Blender: runs at once, beside the script that holds it.
        expect(await execute(other, "return 6 * 7")).toMatchObject({ success: true, output: 42 });
        // A read runs between the holder's commands and sees its work before it is committed.
        const during = (await execute(other, objects)).output as unknown[];
        expect(during.length).toBeGreaterThan(before.length);
        controller.abort("test cancels");
        await expect(holder).rejects.toThrow();
        // The cancelled script's rollback finishes before this read reaches Blender.
        expect((await execute(client, objects)).output).toEqual(before);
      } finally {
        await other.close();
      }
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
