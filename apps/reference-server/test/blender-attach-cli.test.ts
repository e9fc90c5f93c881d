// The artist's own Blender from the command line: an interactive Blender (under Xvfb) with the
// DCC Link add-on, and the CLI attached to it with --blender-attach (its connection file, and
// auto, which finds the file where the add-on writes it). Through MCP on both revisions, a script
// changes the scene and sees it in a capture.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { linkPythonPath } from "@dcc/link";
import { revisions, type TestClient, type ToolResult } from "@dcc/mcp-test-clients";
import { assertBlender, describeWithBlender, spawnTied } from "@dcc/test-support";
import { decode } from "fast-png";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliProcess,
  connectHttp,
  processAlive,
  spawnCli,
  startupUrl,
  stopCli,
  until,
} from "./__fixtures__/mcp-helpers.ts";

const addonScripts = fileURLToPath(new URL("../../../packages/blender/python", import.meta.url));

/** The images of a tool result, decoded. */
function images(
  result: ToolResult,
): { width: number; height: number; pixels: Uint8Array; channels: number }[] {
  return result.content
    .filter((block) => block.type === "image")
    .map((block) => {
      expect(block.mimeType).toBe("image/png");
      const png = decode(Buffer.from(block.data ?? "", "base64"));
      return {
        width: png.width,
        height: png.height,
        pixels: png.data as Uint8Array,
        channels: png.channels,
      };
    });
}

function distinctPixels(image: { pixels: Uint8Array; channels: number }): number {
  const seen = new Set<string>();
  for (let index = 0; index < image.pixels.length; index += image.channels) {
    seen.add(image.pixels.subarray(index, index + image.channels).join(","));
  }
  return seen.size;
}

describeWithBlender(
  "the CLI attached to an interactive Blender (--blender-attach, under Xvfb)",
  () => {
    let folder: string;
    let blender: ChildProcess | undefined;
    // Every CLI started, so a failed test leaves none behind.
    const clis: CliProcess[] = [];
    const startCli = (args: string[], env?: Record<string, string>): CliProcess => {
      const started = spawnCli(args, env);
      clis.push(started);
      return started;
    };
    let client: TestClient | undefined;
    // Where the add-on makes its folder when DCC_BLENDER_LINK_DIR is not set: TMPDIR, with no
    // XDG_RUNTIME_DIR. The CLI looks in the same place.
    const linkEnv = (): Record<string, string> => ({
      TMPDIR: join(folder, "tmp"),
      XDG_RUNTIME_DIR: "",
    });

    beforeAll(async () => {
      assertBlender();
      folder = mkdtempSync(join(tmpdir(), "dcc-cli-attach-"));
      mkdirSync(join(folder, "tmp"), { mode: 0o700 });
      const { DCC_BLENDER_LINK_DIR: _unset, ...env } = process.env;
      // Tied to this worker: if it is killed, the reaper ends xvfb-run, Xvfb and Blender.
      blender = spawnTied(
        "xvfb-run",
        [
          "-a",
          "blender",
          "--factory-startup",
          "--disable-autoexec",
          "-noaudio",
          "--addons",
          "dcc_blender_link",
        ],
        {
          env: {
            ...env,
            ...linkEnv(),
            BLENDER_USER_SCRIPTS: addonScripts,
            DCC_LINK_PYTHON_PATH: linkPythonPath(),
            DCC_BLENDER_DATA_DIR: join(folder, "data"),
          },
          stdio: "ignore",
          tree: true,
        },
      );
      await until(
        () => readdirSync(join(folder, "tmp")).some((name) => name.startsWith("dcc-blender-")),
        180_000,
      );
    }, 240_000);

    afterAll(async () => {
      await client?.close().catch(() => undefined);
      for (const started of clis) await stopCli(started);
      if (blender?.pid !== undefined && processAlive(blender.pid))
        process.kill(-blender.pid, "SIGTERM");
      if (blender?.pid !== undefined)
        await until(() => !processAlive(blender?.pid as number), 60_000).catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    });

    const run = async (code: string): Promise<ToolResult> =>
      (client as TestClient).callTool(
        { name: "dcc_execute", arguments: { code, timeout_secs: 120 } },
        { timeout: 180_000 },
      );

    it("attaches by connection file, runs a script and captures the change, on both revisions", async () => {
      const linkFolder = readdirSync(join(folder, "tmp")).find((name) =>
        name.startsWith("dcc-blender-"),
      );
      const connectionFile = join(folder, "tmp", linkFolder as string, "connection.json");
      const cli = startCli(["--blender-attach", connectionFile, "--port", "0"]);
      const url = await startupUrl(cli);
      for (const [index, revision] of revisions.entries()) {
        client = await connectHttp(url, undefined, revision);
        const before = await run(
          'return dispatch("viewport.screenshot", { width: 128, height: 96 });',
        );
        const [first] = images(before);
        expect(first).toMatchObject({ width: 128, height: 96 });
        expect(distinctPixels(first as NonNullable<typeof first>)).toBeGreaterThan(8);
        const after = await run(`
        dispatch("mesh.primitive_uv_sphere_add", { location: [${-2 - 2 * index}, 1, 0] });
        return { objects: dispatch("data.list", { collection: "objects" }).length,
                 shot: dispatch("viewport.screenshot", { width: 128, height: 96 }) };`);
        expect(after.structuredContent).toMatchObject({
          success: true,
          output: { shot: { $image: "img-1", width: 128, height: 96 } },
        });
        const [second] = images(after);
        expect(second?.pixels).not.toEqual(first?.pixels);
        await client.close();
        client = undefined;
      }
      expect(await stopCli(cli)).toBe(0);
      // The artist's Blender is never ended by the server.
      expect(processAlive(blender?.pid as number)).toBe(true);
    }, 600_000);

    it("finds the add-on's connection file itself with auto", async () => {
      const cli = startCli(["--port", "0"], { ...linkEnv(), DCC_BLENDER_ATTACH: "auto" });
      client = await connectHttp(await startupUrl(cli));
      const listed = await run(
        'return dispatch("data.list", { collection: "objects" }).map((o) => o.name);',
      );
      // The spheres the first test's scripts added are there: it is the same Blender.
      expect(listed.structuredContent).toMatchObject({
        success: true,
        output: expect.arrayContaining(["Cube", "Sphere", "Sphere.001"]),
      });
    }, 600_000);
  },
);

describe("the CLI with --blender-attach auto and no Blender running the add-on", () => {
  it("refuses to start, saying where it looked", async () => {
    const empty = mkdtempSync(join(tmpdir(), "dcc-cli-attach-none-"));
    try {
      const cli = spawnCli(["--blender-attach", "auto", "--port", "0"], {
        TMPDIR: empty,
        XDG_RUNTIME_DIR: "",
      });
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toMatch(
        new RegExp(
          `could not start: .*No running Blender with the DCC Link add-on was found \\(looked at: ${empty}/dcc-blender-\\*/connection\\.json\\)`,
          "s",
        ),
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 240_000);
});
