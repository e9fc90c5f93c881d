import { describe, expect, it } from "vitest";
import { dccSandboxMode } from "./dcc-sandbox-mode.ts";

describe("dccSandboxMode", () => {
  it("takes the option first, then DCC_SANDBOX, then auto", () => {
    expect(dccSandboxMode("on", { env: { DCC_SANDBOX: "off" } })).toBe("on");
    expect(dccSandboxMode(undefined, { env: { DCC_SANDBOX: "off" } })).toBe("off");
    expect(dccSandboxMode(undefined, { env: { DCC_SANDBOX: "" } })).toBe("auto");
    expect(dccSandboxMode(undefined, { env: {} })).toBe("auto");
  });

  it("refuses other values, naming where they came from", () => {
    expect(() => dccSandboxMode("none", { env: {} })).toThrow(
      'sandbox must be "auto", "on" or "off", not "none"',
    );
    expect(() => dccSandboxMode("none", { optionName: "--sandbox" })).toThrow(
      '--sandbox must be "auto", "on" or "off", not "none"',
    );
    expect(() => dccSandboxMode(undefined, { env: { DCC_SANDBOX: "0" } })).toThrow(
      'DCC_SANDBOX must be "auto", "on" or "off", not "0"',
    );
  });
});
