import { describe, expect, it } from "vitest";
import { describeConfig } from "./describe-config.ts";
import { parseCliArguments } from "./parse-cli-arguments.ts";

const described = (argv: string[], env: Record<string, string> = {}) =>
  describeConfig(parseCliArguments(argv, env, "/w"));

describe("describeConfig", () => {
  it("describes the default server: simulated Maya over HTTP on loopback, no auth", () => {
    expect(described(["--data-dir", "d", "--scripts-dir", "s"])).toEqual({
      transport: "http",
      url: "http://127.0.0.1:8765/mcp",
      dcc: ["maya"],
      maya: "simulated",
      blender: "launch",
      dataDir: "/w/d",
      scriptsDir: "/w/s",
      auth: "none",
      audit: null,
      farm: null,
      ask: null,
    });
    expect(described(["--ask", "delete,render", "--ask-timeout", "30"]).ask).toEqual({
      rules: ["delete", "render"],
      timeoutSecs: 30,
    });
  });

  it("describes stdio with Blender, without an HTTP address", () => {
    const description = described(["--dcc", "blender", "--stdio"]);
    expect(description.transport).toBe("stdio");
    expect(description).not.toHaveProperty("url");
    expect(description.dcc).toEqual(["blender"]);
  });

  it("names how clients authenticate and where the farm is, never a secret", () => {
    const token = "a-token-of-sixteen-or-more";
    const description = described(
      ["--host", "::1", "--port", "9000", "--farm", "redis://farm-redis:6390", "--check"],
      {
        DCC_MCP_TOKEN: token,
        DCC_MCP_TOKENS: "alice=alice-token-0123456789",
        DCC_FARM_REDIS_PASSWORD: "hunter2-secret",
      },
    );
    expect(description.url).toBe("http://[::1]:9000/mcp");
    expect(description.auth).toBe("token and labelled tokens (1)");
    expect(description.farm).toBe("farm-redis:6390");
    const text = JSON.stringify(description);
    for (const secret of [token, "alice-token-0123456789", "hunter2-secret"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("is asked for with --check", () => {
    expect(parseCliArguments(["--check"], {}, "/w").check).toBe(true);
    expect(parseCliArguments([], {}, "/w").check).toBe(false);
  });
});
