// The client configurations a README shows, as the package checks read them. A fenced block whose
// info string is `json mcp-client` is a client's configuration file (`mcpServers` for Claude
// Desktop, Claude Code and Cursor, `servers` for VS Code); `sh mcp-client` holds command lines
// (Claude Code's `claude mcp add`, the MCP Inspector), one per line, `#` lines being comments.

/** One server a client configuration names: a launch of the package, or a URL. */
export type ClientServer =
  | { kind: "launch"; where: string; args: string[]; env: Record<string, string> }
  | { kind: "url"; where: string; url: string; authorization: string | undefined };

const fence = /^```(json|sh)[ \t]+mcp-client[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

/**
 * The servers named by every `mcp-client` block of `markdown` that launch `packageName`
 * (`npx -y <packageName> …`) or connect to a URL.
 * @throws {Error} naming the README line of a block that does not parse, or of a server entry or
 *   command line that neither launches the package with `npx -y` nor names a URL.
 */
export function clientServers(markdown: string, packageName: string): ClientServer[] {
  const servers: ClientServer[] = [];
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split("\n").length;
    const body = match[2] ?? "";
    if (match[1] === "json") servers.push(...jsonServers(body, packageName, `line ${line}`));
    else {
      body.split("\n").forEach((text, index) => {
        const where = `line ${line + 1 + index}`;
        if (text.trim() === "" || text.trim().startsWith("#")) return;
        servers.push(commandLineServer(shellWords(text), packageName, where));
      });
    }
  }
  return servers;
}

function jsonServers(body: string, packageName: string, where: string): ClientServer[] {
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(body) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`the mcp-client block at ${where} is not JSON: ${(error as Error).message}`);
  }
  const table = (config["mcpServers"] ?? config["servers"]) as
    | Record<string, Record<string, unknown>>
    | undefined;
  if (table === undefined || typeof table !== "object") {
    throw new Error(`the mcp-client block at ${where} has no mcpServers or servers`);
  }
  return Object.entries(table).map(([name, entry]) => {
    const at = `${where} (${name})`;
    if (typeof entry["url"] === "string") {
      const headers = (entry["headers"] ?? {}) as Record<string, string>;
      return { kind: "url", where: at, url: entry["url"], authorization: headers["Authorization"] };
    }
    const command = [entry["command"], ...((entry["args"] as unknown[] | undefined) ?? [])];
    const server = commandLineServer(command.map(String), packageName, at);
    if (server.kind === "launch") server.env = (entry["env"] ?? {}) as Record<string, string>;
    return server;
  });
}

function commandLineServer(words: string[], packageName: string, where: string): ClientServer {
  for (let index = 0; index + 2 < words.length; index++) {
    if (words[index] === "npx" && words[index + 1] === "-y" && words[index + 2] === packageName) {
      return { kind: "launch", where, args: words.slice(index + 3), env: {} };
    }
  }
  const url = words.find((word) => /^https?:\/\//.test(word));
  if (url === undefined) {
    throw new Error(
      `${where} neither runs npx -y ${packageName} nor names a URL: ${words.join(" ")}`,
    );
  }
  const header = words.indexOf("--header");
  const value = header < 0 ? undefined : words[header + 1];
  const authorization = value?.startsWith("Authorization: ")
    ? value.slice("Authorization: ".length)
    : undefined;
  return { kind: "url", where, url, authorization };
}

/** Splits a command line into words: spaces separate, double or single quotes group. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  }
  return words;
}
