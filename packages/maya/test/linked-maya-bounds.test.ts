// Arguments bounded on both sides of the link to a real Maya, played by the stand-in `mayapy`
// running the same plug-in side as Maya: a deeply nested argument is refused before it is sent,
// and a raw frame that bypasses Node is refused by the host's link, which serves on.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MayaSession, startMayaSession } from "./support/maya-session.ts";

const nested = (depth: number): string =>
  `let inner = []; for (let i = 1; i < ${depth}; i++) inner = [inner];\n`;

describe("deeply nested arguments", () => {
  let session: MayaSession;
  beforeAll(async () => {
    session = await startMayaSession();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("a dispatch with an argument nested 1000 deep gets INVALID_ARGS, and Maya stays up", async () => {
    const pid = session.adapter.pid;
    const result = await session.run(
      `${nested(1000)}try { return dispatch("ls", { type: inner }); } catch (e) { return { code: e.code, message: e.message }; }`,
    );
    expect(result).toMatchObject({
      success: true,
      output: { code: "INVALID_ARGS", message: expect.stringContaining("deeper than 64 levels") },
    });
    const next = await session.run('return dispatch("polyCube", { name: "after" })[0];');
    expect(next).toMatchObject({ success: true, output: "after" });
    expect(session.adapter.pid).toBe(pid);
    expect(session.adapter.launches).toBe(1);
  });

  it("a raw frame nested 1000 deep gets a BAD_FRAME goodbye, and the host serves on", async () => {
    const pid = session.adapter.pid;
    const access = session.adapter.connection?.laneAccess()?.access;
    if (access === undefined || access.endpoint.kind !== "unix") {
      throw new Error("the Maya adapter offers no link access over a Unix socket");
    }
    const socket = connect({ path: access.endpoint.path });
    const chunks: Buffer[] = [];
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    const welcomed = new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const guard = (what: string) =>
      new Promise((_resolve, reject) => setTimeout(() => reject(new Error(what)), 60_000));
    socket.write(frameOf(JSON.stringify({ type: "hello", protocol: 1, token: access.token })));
    await Promise.race([welcomed, guard("no welcome")]);
    const params = `{"v":${"[".repeat(1000)}${"]".repeat(1000)}}`;
    socket.write(frameOf(`{"type":"call","id":1,"method":"ls","params":${params}}`));
    await Promise.race([closed, guard("the host kept the connection open")]);
    const received = framesOf(Buffer.concat(chunks));
    expect(received.map((frame) => frame["type"])).toEqual(["welcome", "bye"]);
    expect(received[1]).toMatchObject({ code: "BAD_FRAME" });
    const next = await session.run('return dispatch("ls", { type: "transform" }).length;');
    expect(next).toMatchObject({ success: true });
    expect(session.adapter.pid).toBe(pid);
  });
});

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
