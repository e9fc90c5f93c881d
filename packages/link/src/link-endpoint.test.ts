import { describe, expect, it } from "vitest";
import { LinkClient } from "./link-client.ts";
import { assertLoopbackEndpoint, isLoopbackAddress } from "./link-endpoint.ts";

describe("loopback endpoints", () => {
  it.each(["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])(
    "accepts %s",
    (host) => {
      expect(isLoopbackAddress(host)).toBe(true);
      expect(() => assertLoopbackEndpoint({ kind: "tcp", host, port: 9000 })).not.toThrow();
    },
  );

  it.each([
    "0.0.0.0",
    "10.0.0.1",
    "192.168.1.20",
    "::",
    "::ffff:10.0.0.1",
    "localhost",
    "example.com",
    "128.0.0.1",
  ])("refuses %s, and LinkClient refuses it before connecting", (host) => {
    expect(isLoopbackAddress(host)).toBe(false);
    expect(
      () => new LinkClient({ endpoint: { kind: "tcp", host, port: 9000 }, token: "t" }),
    ).toThrowError(expect.objectContaining({ code: "NOT_LOOPBACK", completion: "not_started" }));
  });

  it("refuses impossible ports and empty socket paths", () => {
    for (const port of [0, 65536, 1.5]) {
      expect(() => assertLoopbackEndpoint({ kind: "tcp", host: "127.0.0.1", port })).toThrow();
    }
    expect(() => assertLoopbackEndpoint({ kind: "unix", path: "" })).toThrow();
    expect(() => assertLoopbackEndpoint({ kind: "unix", path: "/tmp/x.sock" })).not.toThrow();
  });
});
