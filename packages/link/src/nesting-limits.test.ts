import { afterEach, describe, expect, it } from "vitest";
import { closeRawHosts, startRawHost } from "./__fixtures__/raw-host.ts";
import { frame, frames, rawConnect } from "./__fixtures__/raw-socket.ts";
import { LinkClient } from "./link-client.ts";

afterEach(closeRawHosts);

/** Params nested `depth` levels: an object, then arrays, the innermost empty. */
function nested(depth: number): Record<string, unknown> {
  let inner: unknown[] = [];
  for (let level = 2; level < depth; level++) inner = [inner];
  return { v: inner };
}

/** A raw call frame whose params nest `depth` levels, written as text (no JSON.stringify). */
function deepCallFrame(id: number, depth: number): Buffer {
  const params = `{"v":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
  return frame(`{"type":"call","id":${id},"method":"echo","params":${params}}`);
}

describe("nesting limits", () => {
  it("refuses to send params nested deeper than 64 levels, and the link stays up", async () => {
    const host = await startRawHost();
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    const welcome = await link.connect();
    await expect(link.call("echo", nested(64))).resolves.toEqual(nested(64));
    const error = await link.call("echo", nested(65)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "BAD_FRAME", completion: "not_started", method: "echo" });
    expect((error as Error).message).toContain("deeper than 64 levels");
    await expect(link.call("echo", nested(1000))).rejects.toMatchObject({
      completion: "not_started",
    });
    expect(link.state).toBe("connected");
    expect(link.welcome).toBe(welcome);
    await link.close();
  });

  it.each([
    ["blocking", 66],
    ["blocking", 1000],
    ["pump", 1000],
    ["blocking", 200_000],
  ] as const)(
    "host side (%s loop): a frame nested %d levels gets a BAD_FRAME goodbye naming the limit, and the host serves on",
    async (loop, depth) => {
      const host = await startRawHost({ loop });
      const peer = await rawConnect(host.endpoint);
      peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
      await peer.frames(1);
      peer.socket.write(deepCallFrame(1, depth));
      const received = frames(await peer.closed());
      expect(received.map((item) => item["type"])).toEqual(["welcome", "bye"]);
      expect(received[1]).toMatchObject({ code: "BAD_FRAME" });
      expect(String(received[1]?.["message"])).toContain("at most 64 levels");
      // The same process answers a new connection.
      const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
      await expect(link.call("info")).resolves.toMatchObject({ pid: host.child.pid });
      expect(host.child.exitCode).toBeNull();
      await link.close();
    },
  );

  it("host side: params at the limit are answered, in a raw frame too", async () => {
    const host = await startRawHost();
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
    peer.socket.write(deepCallFrame(7, 64));
    const received = await peer.frames(2);
    expect(received[1]).toEqual({ type: "result", id: 7, result: nested(64) });
    peer.socket.destroy();
  });

  it("host side: a result too deep to encode is answered with INVALID_RESULT, and the host serves on", async () => {
    const host = await startRawHost();
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    await expect(link.call("deep", { depth: 5000 })).rejects.toMatchObject({
      code: "REMOTE_ERROR",
      remoteCode: "INVALID_RESULT",
      completion: "complete",
    });
    await expect(link.call("info")).resolves.toMatchObject({ pid: host.child.pid });
    await link.close();
  });
});
