import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "./http-guards.ts";
import { sessionClient } from "./http-sessions.ts";

describe("sessionClient", () => {
  it("counts a labelled token's sessions together, wherever they come from", () => {
    expect(sessionClient("alice", "127.0.0.1", isLoopbackHost)).toBe("token alice");
    expect(sessionClient("alice", "192.0.2.7", isLoopbackHost)).toBe("token alice");
  });

  it("counts a remote client without a labelled token by its address", () => {
    expect(sessionClient(undefined, "192.0.2.7", isLoopbackHost)).toBe("address 192.0.2.7");
    expect(sessionClient(undefined, "::ffff:192.0.2.7", isLoopbackHost)).toBe(
      "address ::ffff:192.0.2.7",
    );
  });

  it("gives local clients without a labelled token no share of their own: they share one address", () => {
    for (const address of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1", ""]) {
      expect(sessionClient(undefined, address, isLoopbackHost)).toBeUndefined();
    }
  });
});
