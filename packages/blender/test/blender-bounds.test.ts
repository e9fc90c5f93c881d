// Bounds on what crosses to and from a real Blender. Arguments: a deeply nested argument is
// refused before it is sent, and a raw frame that bypasses Node is refused by Blender's own link
// without ending Blender, its link thread or the session. Outputs: one over the output limit is
// cut, and the script's scene changes are kept.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdapterExecutor, type DccHostStatus } from "@dcc/executor";
import type { LinkAccess } from "@dcc/link";
import { assertBlender, describeWithBlender, waitFor } from "@dcc/test-support";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BlenderAdapter, createBlenderAdapter } from "../src/index.ts";
import { type BlenderSession, outputOf, startBlenderSession } from "./support/blender-session.ts";
import { startInteractiveBlender, stopGroup } from "./support/interactive-blender.ts";

/** A script line building `inner`: arrays nested `depth` levels. */
const nestedArrays = (depth: number): string =>
  `let inner = []; for (let i = 1; i < ${depth}; i++) inner = [inner];\n`;

const attempt = (call: string): string =>
  `try { return { value: ${call} } } catch (e) { return { code: e.code, message: e.message, completion: e.completion } }`;

describeWithBlender("bounds on arguments and outputs", () => {
  let session: BlenderSession;
  beforeAll(async () => {
    assertBlender();
    session = await startBlenderSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it.each([
    ["data.get", 'dispatch("data.get", { path: "objects", options: { depth: inner } })'],
    ["data.set", 'dispatch("data.set", { path: "objects[\\"Cube\\"].name", value: inner })'],
  ])(
    "%s with an argument nested 1000 deep gets INVALID_ARGS, and Blender stays up",
    async (_command, call) => {
      const pid = session.adapter.pid;
      const result = await session.run(nestedArrays(1000) + attempt(call));
      const output = outputOf<{ code: string; message: string; completion: string }>(result);
      expect(output).toMatchObject({ code: "INVALID_ARGS", completion: "not_started" });
      expect(output.message).toContain("deeper than 64 levels");
      expect(
        await session.run(`return dispatch("data.list", { collection: "objects" }).length;`),
      ).toMatchObject({ success: true, output: 3 });
      expect(session.adapter.pid).toBe(pid);
      expect(session.adapter.launches).toBe(1);
    },
  );

  it("an output over the output limit is cut; the script succeeds and its torus stays", async () => {
    const result = await session.run(
      'dispatch("mesh.primitive_torus_add", {});\n' +
        'const names = dispatch("data.list", { collection: "objects" }).map((o) => o.name);\n' +
        'return { names, rows: Array.from({ length: 30000 }, (_, i) => ({ i, text: "v".repeat(40) })) };',
    );
    const output = outputOf<{ names: string[]; rows: unknown[] }>(result);
    expect(output.names).toContain("Torus");
    expect(String(output.rows.at(-1))).toMatch(/more items/);
    expect(result).toMatchObject({
      success: true,
      truncated: { limitChars: 1024 * 1024 },
      transaction: { rolledBack: false },
    });
    const after = await session.run(
      'return dispatch("data.list", { collection: "objects" }).map((o) => o.name);',
    );
    expect(outputOf<string[]>(after)).toContain("Torus");
    // One undo takes the whole script back: it was committed as one step.
    const undone = await session.run(
      'dispatch("ed.undo", {}); return dispatch("data.list", { collection: "objects" }).map((o) => o.name);',
    );
    expect(outputOf<string[]>(undone)).not.toContain("Torus");
  });

  it("a raw frame nested 1000 deep gets a BAD_FRAME goodbye from Blender, which serves on", async () => {
    const pid = session.adapter.pid;
    const lane = session.adapter.dispatchLane?.();
    const access = (lane?.data as { access?: LinkAccess } | undefined)?.access;
    if (access === undefined || access.endpoint.kind !== "unix") {
      throw new Error("the Blender adapter offers no link access over a Unix socket");
    }
    await expectDeepFrameRefused(access.endpoint.path, access.token);
    expect(
      await session.run(`return dispatch("data.list", { collection: "cameras" }).length;`),
    ).toMatchObject({ success: true, output: 1 });
    expect(session.adapter.pid).toBe(pid);
  });
});

describeWithBlender(
  "deeply nested arguments, attached to an interactive Blender (under Xvfb)",
  () => {
    let folder: string;
    let blender: ChildProcess | undefined;
    let adapter: BlenderAdapter | undefined;
    beforeAll(() => {
      assertBlender();
      folder = mkdtempSync(join(tmpdir(), "dcc-blender-nesting-"));
      mkdirSync(join(folder, "link"), { mode: 0o700 });
    });
    afterAll(async () => {
      await adapter?.close?.();
      stopGroup(blender);
      rmSync(folder, { recursive: true, force: true });
    });

    it("refuses a nested argument and a raw nested frame; the add-on's link serves on", async () => {
      const connectionFile = join(folder, "link", "connection.json");
      blender = startInteractiveBlender(
        join(folder, "link"),
        join(folder, "data"),
        join(folder, "tmp"),
      );
      await waitFor("the add-on's connection.json", () => existsSync(connectionFile), 120_000);
      const statuses: DccHostStatus[] = [];
      adapter = createBlenderAdapter({ attach: { connectionFile } });
      await adapter.start?.({
        signal: AbortSignal.timeout(120_000),
        reportHost: (status) => statuses.push(status),
      });
      const pid = adapter.pid;
      const executor = createAdapterExecutor(adapter);
      try {
        const refused = await executor.execute(
          nestedArrays(1000) +
            attempt('dispatch("data.get", { path: "objects", options: { depth: inner } })'),
          { timeoutSecs: 120 },
        );
        expect(refused).toMatchObject({ success: true, output: { code: "INVALID_ARGS" } });
        const { socket, token } = JSON.parse(readFileSync(connectionFile, "utf8")) as {
          socket: string;
          token: string;
        };
        await expectDeepFrameRefused(socket, token);
        const after = await executor.execute(
          'return dispatch("data.list", { collection: "objects" }).length;',
          { timeoutSecs: 120 },
        );
        expect(after).toMatchObject({ success: true, output: 3 });
        expect(adapter.pid).toBe(pid);
        expect(statuses.some((status) => status.state === "unavailable")).toBe(false);
      } finally {
        await executor.close();
      }
    });
  },
);

/** Sends a frame nested 1000 deep on an authenticated raw connection and checks the goodbye. */
async function expectDeepFrameRefused(socketPath: string, token: string): Promise<void> {
  const socket = connect({ path: socketPath });
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const welcomed = new Promise<void>((resolve) => socket.once("data", () => resolve()));
  socket.write(frameOf(JSON.stringify({ type: "hello", protocol: 1, token })));
  // Authenticated first: a peer that has not been welcomed is dropped without an answer.
  await Promise.race([
    welcomed,
    new Promise((_resolve, reject) =>
      setTimeout(() => reject(new Error("Blender sent no welcome")), 60_000),
    ),
  ]);
  const params = `{"v":${"[".repeat(1000)}${"]".repeat(1000)}}`;
  socket.write(frameOf(`{"type":"call","id":1,"method":"data.get","params":${params}}`));
  await Promise.race([
    closed,
    new Promise((_resolve, reject) =>
      setTimeout(() => reject(new Error("Blender kept the connection open")), 60_000),
    ),
  ]);
  const received = framesOf(Buffer.concat(chunks));
  expect(received.map((frame) => frame["type"])).toEqual(["welcome", "bye"]);
  expect(received[1]).toMatchObject({ code: "BAD_FRAME" });
  expect(String(received[1]?.["message"])).toContain("at most 64 levels");
}

function frameOf(json: string): Buffer {
  const body = Buffer.from(json);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

function framesOf(bytes: Buffer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let offset = 0;
  while (bytes.length - offset >= 4) {
    const length = bytes.readUInt32BE(offset);
    if (bytes.length - offset - 4 < length) break;
    out.push(JSON.parse(bytes.subarray(offset + 4, offset + 4 + length).toString("utf8")));
    offset += 4 + length;
  }
  return out;
}
