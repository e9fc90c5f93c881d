import { afterEach, describe, expect, it } from "vitest";
import { closeRawHosts, startRawHost } from "./__fixtures__/raw-host.ts";
import { frame, frames, rawConnect } from "./__fixtures__/raw-socket.ts";
import { LinkClient } from "./link-client.ts";
import type { LinkDisconnect } from "./link-client-options.ts";
import { RemoteCallError } from "./remote-call-error.ts";

afterEach(closeRawHosts);

const small = { DCC_LINK_MAX_FRAME_BYTES: "4096" };

describe("frame limits", () => {
  it("refuses to send a call over its own limit, and the link stays up", async () => {
    const host = await startRawHost();
    const link = new LinkClient({
      endpoint: host.endpoint,
      token: host.token,
      heartbeat: false,
      maxFrameBytes: 4096,
    });
    const welcome = await link.connect();
    await expect(link.call("echo", { text: "x".repeat(10_000) })).rejects.toMatchObject({
      code: "FRAME_TOO_LARGE",
      completion: "not_started",
    });
    await expect(link.call("echo", { text: "small" })).resolves.toEqual({ text: "small" });
    expect(link.welcome).toBe(welcome);
    await link.close();
  });

  it("refuses to send a call over the host's advertised limit, and the link stays up", async () => {
    const host = await startRawHost({ env: small });
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    expect((await link.connect()).maxFrameBytes).toBe(4096);
    const error = await link.call("echo", { text: "x".repeat(10_000) }).catch((caught) => caught);
    expect(error).toMatchObject({ code: "FRAME_TOO_LARGE", completion: "not_started" });
    expect((error as Error).message).toContain("4096");
    await expect(link.call("echo", { n: 1 })).resolves.toEqual({ n: 1 });
    await link.close();
  });

  it("host side: drops an authenticated peer whose frame is over its limit, saying why", async () => {
    const host = await startRawHost({ env: small });
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
    await peer.frames(1);
    peer.socket.write(
      frame({ type: "call", id: 1, method: "echo", params: { text: "x".repeat(5000) } }),
    );
    const received = frames(await peer.closed());
    expect(received.map((item) => item["type"])).toEqual(["welcome", "bye"]);
    expect(received[1]).toMatchObject({ code: "FRAME_TOO_LARGE" });
  });

  it("host side: a result over its limit is answered with RESULT_TOO_LARGE instead", async () => {
    const host = await startRawHost({ env: small });
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    const error = await link.call("big", { bytes: 10_000 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RemoteCallError);
    expect(error).toMatchObject({ remoteCode: "RESULT_TOO_LARGE", completion: "complete" });
    await expect(link.call("big", { bytes: 10 })).resolves.toBe("x".repeat(10));
    await link.close();
  });

  it("drops the connection on a reply over its own limit (completion unknown), then reconnects", async () => {
    const host = await startRawHost();
    const link = new LinkClient({
      endpoint: host.endpoint,
      token: host.token,
      heartbeat: false,
      maxFrameBytes: 4096,
    });
    const disconnects: LinkDisconnect[] = [];
    link.onDisconnect((disconnect) => disconnects.push(disconnect));
    const error = await link.call("big", { bytes: 10_000 }).catch((caught) => caught);
    expect(error).toMatchObject({ code: "FRAME_TOO_LARGE", completion: "unknown", method: "big" });
    expect(disconnects).toEqual([expect.objectContaining({ code: "FRAME_TOO_LARGE" })]);
    await expect(link.call("echo", { again: true })).resolves.toEqual({ again: true });
    await link.close();
  });
});
