import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  checkHostAndOrigin,
  defaultAllowedHosts,
  hostnameOf,
  matchBearerToken,
  sha256,
} from "./http-guards.ts";

const request = (headers: Record<string, string>): IncomingMessage =>
  ({ headers }) as unknown as IncomingMessage;

describe("http guards", () => {
  it("reads host names without ports, IPv6 included", () => {
    expect(hostnameOf("LocalHost:8765")).toBe("localhost");
    expect(hostnameOf("[::1]:8765")).toBe("[::1]");
    expect(hostnameOf("127.0.0.1")).toBe("127.0.0.1");
    expect(hostnameOf(undefined)).toBeUndefined();
    expect(hostnameOf("bad host:1")).toBeUndefined();
  });

  it("allows loopback names by default and adds a named bind host", () => {
    expect(defaultAllowedHosts("127.0.0.1")).toEqual(
      expect.arrayContaining(["localhost", "127.0.0.1", "[::1]"]),
    );
    expect(defaultAllowedHosts("studio-box")).toContain("studio-box");
    expect(defaultAllowedHosts("0.0.0.0")).not.toContain("0.0.0.0");
  });

  it("checks Host first, then Origin", () => {
    const hosts = defaultAllowedHosts("127.0.0.1");
    expect(checkHostAndOrigin(request({ host: "127.0.0.1:1" }), hosts, [])).toBeUndefined();
    expect(checkHostAndOrigin(request({}), hosts, [])).toMatch(/Invalid Host/);
    expect(checkHostAndOrigin(request({ host: "attacker.example" }), hosts, [])).toMatch(
      /Invalid Host/,
    );
    expect(
      checkHostAndOrigin(
        request({ host: "localhost:1", origin: "http://127.0.0.1:3000" }),
        hosts,
        [],
      ),
    ).toBeUndefined();
    expect(
      checkHostAndOrigin(
        request({ host: "localhost:1", origin: "http://attacker.example" }),
        hosts,
        [],
      ),
    ).toMatch(/Invalid Origin/);
    expect(
      checkHostAndOrigin(request({ host: "localhost:1", origin: "https://app.example" }), hosts, [
        "https://app.example",
      ]),
    ).toBeUndefined();
  });

  it("matches bearer tokens exactly", () => {
    const tokens = [{ digest: sha256("0123456789abcdef"), label: undefined }];
    const matches = (headers: Record<string, string>) =>
      matchBearerToken(request(headers), tokens) !== undefined;
    expect(matches({ authorization: "Bearer 0123456789abcdef" })).toBe(true);
    expect(matches({ authorization: "bearer 0123456789abcdef " })).toBe(true);
    expect(matches({ authorization: "Bearer 0123456789abcde" })).toBe(false);
    expect(matches({ authorization: "Token 0123456789abcdef" })).toBe(false);
    expect(matchBearerToken(request({}), [{ digest: sha256(""), label: "x" }])).toBeUndefined();
  });

  it("tells which labelled token a request used", () => {
    const tokens = [
      { digest: sha256("plain-token-0123456789"), label: undefined },
      { digest: sha256("alice-token-0123456789"), label: "alice" },
      { digest: sha256("ci-job-token-012345678"), label: "ci" },
    ];
    const used = (token: string) =>
      matchBearerToken(request({ authorization: `Bearer ${token}` }), tokens);
    expect(used("ci-job-token-012345678")?.label).toBe("ci");
    expect(used("alice-token-0123456789")?.label).toBe("alice");
    expect(used("plain-token-0123456789")).toEqual({ digest: tokens[0]?.digest, label: undefined });
    expect(used("someone-else-0123456789")).toBeUndefined();
  });
});
