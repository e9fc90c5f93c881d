import { afterEach, describe, expect, it } from "vitest";
import { closeRawHosts, startRawHost } from "./__fixtures__/raw-host.ts";
import { frame, frames, rawConnect } from "./__fixtures__/raw-socket.ts";
import { LinkClient } from "./link-client.ts";

afterEach(closeRawHosts);

/** Params for the test host's `emit` handler: raw frames sent ahead of its reply. */
const emit = (...raw: Buffer[]): { frames: string[]; reply: string } => ({
  frames: raw.map((bytes) => bytes.toString("base64")),
  reply: "reply",
});

describe("garbage frames", () => {
  it.each([
    ["invalid JSON", frame("{not json")],
    ["invalid UTF-8", frame(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]))],
    ["a JSON array", frame("[1,2,3]")],
    ["a frame type the protocol does not know", frame({ type: "surprise" })],
    ["a result without an id", frame({ type: "result", result: 1 })],
  ])(
    "from the host (%s) drop the connection with BAD_FRAME; the next call reconnects",
    async (_what, raw) => {
      const host = await startRawHost();
      const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
      await expect(link.call("emit", emit(raw))).rejects.toMatchObject({
        code: "BAD_FRAME",
        completion: "unknown",
        method: "emit",
      });
      expect(link.state).toBe("disconnected");
      await expect(link.call("echo", { ok: 1 })).resolves.toEqual({ ok: 1 });
      await link.close();
    },
  );

  it.each([
    ["garbage", frame("garbage")],
    ["an unknown frame type", frame({ type: "surprise" })],
    ["a second hello", frame({ type: "hello", protocol: 1, token: "x" })],
    ["a call without an id", frame({ type: "call", method: "echo", params: {} })],
  ])(
    "from a client after the handshake (%s) get a BAD_FRAME goodbye and a close",
    async (_what, raw) => {
      const host = await startRawHost();
      const peer = await rawConnect(host.endpoint);
      peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
      await peer.frames(1);
      peer.socket.write(raw);
      const received = frames(await peer.closed());
      expect(received.map((item) => item["type"])).toEqual(["welcome", "bye"]);
      expect(received[1]).toMatchObject({ code: "BAD_FRAME" });
    },
  );

  it("answers a call without a method or with non-object params, and keeps the connection", async () => {
    const host = await startRawHost();
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
    peer.socket.write(frame({ type: "call", id: 1, params: {} }));
    peer.socket.write(frame({ type: "call", id: 2, method: "echo", params: [1] }));
    peer.socket.write(frame({ type: "call", id: 3, method: "echo", params: { fine: true } }));
    const received = await peer.frames(4);
    expect(received.slice(1)).toEqual([
      expect.objectContaining({
        type: "error",
        id: 1,
        started: false,
        error: expect.objectContaining({ code: "BAD_REQUEST" }),
      }),
      expect.objectContaining({ type: "error", id: 2, started: false }),
      { type: "result", id: 3, result: { fine: true } },
    ]);
    peer.socket.destroy();
  });

  it("a result JSON cannot carry (NaN) comes back as INVALID_RESULT", async () => {
    const host = await startRawHost();
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    await expect(link.call("nan")).rejects.toMatchObject({
      code: "REMOTE_ERROR",
      remoteCode: "INVALID_RESULT",
      completion: "complete",
    });
    await link.close();
  });

  it("drops replies and pongs for unknown ids, and still takes the real reply", async () => {
    const host = await startRawHost({ loop: "pump" });
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    const strays = emit(
      frame({ type: "result", id: 999_999, result: "stray" }),
      frame({
        type: "error",
        id: "not-ours",
        error: { code: "X", message: "stray" },
        started: true,
      }),
      frame({ type: "pong", id: 12_345, busy: false }),
    );
    await expect(link.call("emit", strays)).resolves.toBe("reply");
    expect(link.droppedFrames).toBe(3);
    expect(link.state).toBe("connected");
    await link.close();
  });
});
