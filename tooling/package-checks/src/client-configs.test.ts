import { describe, expect, it } from "vitest";
import { clientServers, shellWords } from "./client-configs.ts";

const fence = "```";

describe("clientServers", () => {
  it("reads launches and URLs from JSON configurations and command lines", () => {
    const markdown = [
      "# Title",
      `${fence}json mcp-client`,
      JSON.stringify({
        mcpServers: {
          a: { command: "npx", args: ["-y", "@x/server", "--stdio"], env: { K: "v" } },
          b: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer {T}" } },
        },
      }),
      fence,
      `${fence}sh mcp-client`,
      "# a comment",
      "claude mcp add a -- npx -y @x/server --dcc blender --stdio",
      'claude mcp add --transport http b http://h/mcp --header "Authorization: Bearer $T"',
      fence,
      `${fence}json`,
      "not a client block {",
      fence,
    ].join("\n");
    expect(clientServers(markdown, "@x/server")).toEqual([
      { kind: "launch", where: "line 2 (a)", args: ["--stdio"], env: { K: "v" } },
      {
        kind: "url",
        where: "line 2 (b)",
        url: "http://127.0.0.1:1/mcp",
        authorization: "Bearer {T}",
      },
      { kind: "launch", where: "line 7", args: ["--dcc", "blender", "--stdio"], env: {} },
      { kind: "url", where: "line 8", url: "http://h/mcp", authorization: "Bearer $T" },
    ]);
  });

  it("reads VS Code's servers table", () => {
    const markdown = `${fence}json mcp-client\n{"servers":{"s":{"type":"stdio","command":"npx","args":["-y","p","--stdio"]}}}\n${fence}\n`;
    expect(clientServers(markdown, "p")).toEqual([
      { kind: "launch", where: "line 1 (s)", args: ["--stdio"], env: {} },
    ]);
  });

  it("refuses a block that is not JSON, and an entry that launches something else", () => {
    expect(() => clientServers(`${fence}json mcp-client\n{ nope\n${fence}\n`, "p")).toThrow(
      /line 1 is not JSON/,
    );
    expect(() =>
      clientServers(
        `${fence}json mcp-client\n{"mcpServers":{"s":{"command":"node","args":["cli.js"]}}}\n${fence}\n`,
        "p",
      ),
    ).toThrow(/line 1 \(s\) neither runs npx -y p nor names a URL/);
    expect(() => clientServers(`${fence}sh mcp-client\nnpx p --stdio\n${fence}\n`, "p")).toThrow(
      /line 2 neither runs npx -y p/,
    );
  });
});

describe("shellWords", () => {
  it("groups quoted words", () => {
    expect(shellWords(`a "b c" 'd e' f`)).toEqual(["a", "b c", "d e", "f"]);
  });
});
