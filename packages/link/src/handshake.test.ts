import { afterEach, describe, expect, it } from "vitest";
import { closeRawHosts, startRawHost } from "./__fixtures__/raw-host.ts";
import { frame, frames, rawConnect } from "./__fixtures__/raw-socket.ts";
import { LinkClient } from "./link-client.ts";
import { LinkError } from "./link-error.ts";

afterEach(closeRawHosts);

describe("the handshake (python host, raw sockets)", () => {
  it("answers the right token with a welcome", async () => {
    const host = await startRawHost();
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame({ type: "hello", protocol: 1, token: host.token }));
    const [welcome] = await peer.frames(1);
    expect(welcome).toEqual({
      type: "welcome",
      protocol: 1,
      loop: "blocking",
      pid: host.child.pid,
      maxFrameBytes: 16 * 1024 * 1024,
    });
    expect(JSON.stringify(welcome)).not.toContain(host.token);
    peer.socket.destroy();
  });

  it.each([
    [
      "a wrong token",
      { type: "hello", protocol: 1, token: "test-token-0123456789abcdef012345678X" },
    ],
    ["a truncated token", { type: "hello", protocol: 1, token: "test-token" }],
    ["a token of another type", { type: "hello", protocol: 1, token: 12345 }],
    ["no token", { type: "hello", protocol: 1 }],
    ["a call before any hello", { type: "call", id: 1, method: "echo", params: {} }],
    ["a ping before any hello", { type: "ping", id: 1 }],
  ])("closes the connection without a byte on %s", async (_what, first) => {
    const host = await startRawHost();
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame(first));
    peer.socket.write(frame({ type: "call", id: 2, method: "echo", params: {} }));
    expect((await peer.closed()).length).toBe(0);
  });

  it("closes without a byte on a first frame that is garbage or too large for a hello", async () => {
    const host = await startRawHost();
    const garbage = await rawConnect(host.endpoint);
    garbage.socket.write(frame("this is not json"));
    const huge = await rawConnect(host.endpoint);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(100_000);
    huge.socket.write(header);
    expect((await garbage.closed()).length).toBe(0);
    expect((await huge.closed()).length).toBe(0);
  });

  it("closes a connection that sends nothing within the auth timeout, without a byte", async () => {
    const host = await startRawHost({ env: { DCC_LINK_AUTH_TIMEOUT_MS: "300" } });
    const peer = await rawConnect(host.endpoint);
    expect((await peer.closed()).length).toBe(0);
  });

  it("serves the right peer while a wrong one is refused", async () => {
    const host = await startRawHost({ transport: "tcp" });
    const intruder = await rawConnect(host.endpoint);
    intruder.socket.write(frame({ type: "hello", protocol: 1, token: "guess-guess-guess-guess" }));
    const link = new LinkClient({ endpoint: host.endpoint, token: host.token, heartbeat: false });
    await expect(link.call("echo", { ok: true })).resolves.toEqual({ ok: true });
    expect((await intruder.closed()).length).toBe(0);
    await link.close();
  });

  it("drops an authenticated peer with a different protocol version, saying why", async () => {
    const host = await startRawHost();
    const peer = await rawConnect(host.endpoint);
    peer.socket.write(frame({ type: "hello", protocol: 2, token: host.token }));
    const received = frames(await peer.closed());
    expect(received).toEqual([expect.objectContaining({ type: "bye", code: "PROTOCOL_MISMATCH" })]);
  });
});

describe("LinkClient's handshake", () => {
  it("fails with AUTH_FAILED (not_started) on a wrong token, without retrying", async () => {
    const host = await startRawHost();
    const link = new LinkClient({
      endpoint: host.endpoint,
      token: "wrong-token-wrong-token-wrong",
      heartbeat: false,
      reconnect: { attempts: 5, initialDelayMs: 10_000 },
    });
    const error = await link.call("echo").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LinkError);
    expect(error).toMatchObject({ code: "AUTH_FAILED", completion: "not_started", method: "echo" });
    await link.close();
  });

  it("fails with CONNECT_FAILED after the bounded attempts when nothing listens", async () => {
    const link = new LinkClient({
      endpoint: { kind: "unix", path: "/nonexistent/dcc-link.sock" },
      token: "any-token-any-token",
      heartbeat: false,
      reconnect: { attempts: 3, initialDelayMs: 10 },
    });
    await expect(link.connect()).rejects.toMatchObject({ code: "CONNECT_FAILED" });
    await expect(link.call("echo")).rejects.toMatchObject({
      code: "CONNECT_FAILED",
      completion: "not_started",
    });
    await link.close();
  });

  it("bounds a handshake the host never answers with LINK_TIMEOUT", async () => {
    const host = await startRawHost();
    process.kill(host.child.pid as number, "SIGSTOP");
    try {
      const link = new LinkClient({
        endpoint: host.endpoint,
        token: host.token,
        heartbeat: false,
        connectTimeoutMs: 300,
        reconnect: { attempts: 2, initialDelayMs: 10 },
      });
      await expect(link.connect()).rejects.toMatchObject({ code: "LINK_TIMEOUT" });
      await link.close();
    } finally {
      process.kill(host.child.pid as number, "SIGCONT");
    }
  });
});
