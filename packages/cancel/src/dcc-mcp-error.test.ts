import { describe, expect, it } from "vitest";
import { DccMcpError } from "./dcc-mcp-error.ts";

describe("DccMcpError", () => {
  it("carries a code, a message and a cause", () => {
    const cause = new Error("root");
    const error = new DccMcpError({ message: "boom", code: "X", cause });
    expect(error.message).toBe("boom");
    expect(error.code).toBe("X");
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
  });

  it("is recognised across package copies through its brand", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("@dcc/cancel/DccMcpError")]: true,
    });
    expect(DccMcpError.is(foreign)).toBe(true);
    expect(DccMcpError.is(new Error("plain"))).toBe(false);
    expect(DccMcpError.is(null)).toBe(false);
  });
});
